import FolioResults
import FolioStore

/// Records a fetched results controller's delegate calls (Core Data's
/// classic ones, made by the default whole-batch callback), as text lines
/// for record-then-compare tests and as change sets for the batch applier;
/// `wholeBatches` keeps what the whole-batch callback received.
///
///     let recorder = ResultsRecordingDelegate<ResultsItem>(describe: \.name)
///     controller.delegate = recorder
///     try context.save()
///     #expect(recorder.lines == ["will", "insert Ant [0, 0]", "did"])
@MainActor
public final class ResultsRecordingDelegate<Entity: ManagedObject>: FetchedResultsControllerDelegate {
    /// Every call so far, one line each.
    public private(set) var lines: [String] = []
    /// One change set per completed batch, rebuilt from the classic calls.
    public private(set) var batches: [FetchedResultsChanges] = []
    /// Each batch as the whole-batch callback received it.
    public private(set) var wholeBatches: [FetchedResultsChanges] = []
    /// Index titles to answer for section names (others keep the default).
    public var indexTitles: [String: String] = [:]
    private var current = FetchedResultsChanges()
    private let describe: (Entity) -> String

    /// A recorder that names objects with `describe`.
    public init(describe: @escaping (Entity) -> String) { self.describe = describe }

    /// Forgets what was recorded.
    public func reset() {
        lines = []
        batches = []
        wholeBatches = []
    }

    /// Keeps the batch, then makes the classic calls.
    public func controller(_ controller: AnyFetchedResultsController, didChangeContentWith changes: FetchedResultsChanges) {
        wholeBatches.append(changes)
        controller.reportEachChange(changes, to: self)
    }

    /// Records `will`.
    public func controllerWillChangeContent(_ controller: AnyFetchedResultsController) {
        lines.append("will")
        current = ResultsChangeSet()
    }

    /// Records `insert section 1 'Mammals'` and the change.
    public func controller(
        _ controller: AnyFetchedResultsController, didChange sectionInfo: any FetchedResultsSectionInfo,
        atSectionIndex sectionIndex: Int, for type: ResultsChangeType
    ) {
        let identifier = (sectionInfo as! FetchedResultsSection).identifier
        lines.append("\(type) section \(sectionIndex) '\(sectionInfo.name)'" + (identifier.isNilKey ? " (nil)" : ""))
        current.sectionChanges.append(SectionChange(type: type, index: sectionIndex, section: identifier))
    }

    /// Records `move Ant [0, 0] -> [1, 2]` and the change.
    public func controller(
        _ controller: AnyFetchedResultsController, didChange anObject: Any, at indexPath: IndexPath?,
        for type: ResultsChangeType, newIndexPath: IndexPath?
    ) {
        let object = anObject as! Entity
        let change = ObjectChange(type: type, id: object.objectID, indexPath: indexPath, newIndexPath: newIndexPath)
        let paths = [indexPath, newIndexPath].compactMap { $0?.description }.joined(separator: " -> ")
        lines.append("\(type) \(describe(object)) \(paths)")
        current.objectChanges.append(change)
    }

    /// Records `did` and closes the batch.
    public func controllerDidChangeContent(_ controller: AnyFetchedResultsController) {
        lines.append("did")
        batches.append(current)
    }

    /// Answers from `indexTitles`.
    public func controller(_ controller: AnyFetchedResultsController, sectionIndexTitleForSectionName sectionName: String) -> String? {
        indexTitles[sectionName]
    }
}
