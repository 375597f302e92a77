import FolioStore
import FolioResults

/// Records a fetched results controller's delegate calls, as text lines for
/// record-then-compare tests and as change sets for the batch applier.
///
///     let recorder = ResultsRecordingDelegate<ResultsItem>(describe: \.name)
///     controller.delegate = recorder
///     try context.save()
///     #expect(recorder.lines == ["will", "insert Ant [0, 0]", "did"])
public final class ResultsRecordingDelegate<Entity: ManagedObject>: FetchedResultsControllerDelegate {
    /// Every call so far, one line each.
    public private(set) var lines: [String] = []
    /// One change set per completed batch.
    public private(set) var batches: [ResultsChangeSet<ObjectID, String>] = []
    /// Index titles to answer for section names (others keep the default).
    public var indexTitles: [String: String] = [:]
    private var current = ResultsChangeSet<ObjectID, String>()
    private let describe: (Entity) -> String

    /// A recorder that names objects with `describe`.
    public init(describe: @escaping (Entity) -> String) { self.describe = describe }

    /// Forgets what was recorded.
    public func reset() {
        lines = []
        batches = []
    }

    /// Records `will`.
    public func controllerWillChangeContent(_ controller: FetchedResultsController<Entity>) {
        lines.append("will")
        current = ResultsChangeSet()
    }

    /// Records `insert section 1 'Mammals'` and the change.
    public func controller(_ controller: FetchedResultsController<Entity>, didChange section: FetchedResultsSection<Entity>,
                           atSectionIndex sectionIndex: Int, for type: ResultsChangeType) {
        lines.append("\(type) section \(sectionIndex) '\(section.name)'")
        current.sectionChanges.append(SectionChange(type: type, index: sectionIndex, section: section.name))
    }

    /// Records `move Ant [0, 0] -> [1, 2]` and the change.
    public func controller(_ controller: FetchedResultsController<Entity>, didChange object: Entity, at indexPath: IndexPath?,
                           for type: ResultsChangeType, newIndexPath: IndexPath?) {
        let change = ObjectChange(type: type, id: object.objectID, indexPath: indexPath, newIndexPath: newIndexPath)
        let paths = [indexPath, newIndexPath].compactMap { $0?.description }.joined(separator: " -> ")
        lines.append("\(type) \(describe(object)) \(paths)")
        current.objectChanges.append(change)
    }

    /// Records `did` and closes the batch.
    public func controllerDidChangeContent(_ controller: FetchedResultsController<Entity>) {
        lines.append("did")
        batches.append(current)
    }

    /// Answers from `indexTitles`.
    public func controller(_ controller: FetchedResultsController<Entity>, sectionIndexTitleForSectionName sectionName: String) -> String? {
        indexTitles[sectionName]
    }
}
