import FolioStore

/// A batch's changes as a controller hands them over: object IDs, and
/// sections identified by their keys.
///
/// ```swift
/// func controller(_ controller: AnyFetchedResultsController, didChangeContentWith changes: FetchedResultsChanges) {
///     adapter.apply(changes)
/// }
/// ```
public typealias FetchedResultsChanges = ResultsChangeSet<ObjectID, SectionIdentifier>

extension AnyFetchedResultsController {
    /// Tells the delegate, the snapshot handler and the change-set streams.
    func deliver(_ report: ResultsChangeSet<Int64, SectionKey>, objects: HandedObjects? = nil) {
        guard !report.isEmpty, suppression == 0 else { return }
        let changes = publicChangeSet(report)
        handedObjects = objects
        delegate?.controller(self, didChangeContentWith: changes)
        handedObjects = nil
        if let snapshotHandler {
            // Moved rows may have changed too; inserted ones get fresh cells anyway.
            let reconfigured = report.objectChanges.filter { $0.type == .update || $0.type == .move }.map { objectID($0.id) }
            snapshotHandler(snapshot(reconfiguring: reconfigured))
        }
        if broadcaster.hasListeners { broadcaster.yield(changes) }
    }

    func publicChangeSet(_ report: ResultsChangeSet<Int64, SectionKey>) -> FetchedResultsChanges {
        ResultsChangeSet(
            sectionChanges: report.sectionChanges.map {
                SectionChange(type: $0.type, index: $0.index, section: sectionIdentifier($0.section))
            },
            objectChanges: report.objectChanges.map {
                ObjectChange(type: $0.type, id: objectID($0.id), indexPath: $0.indexPath, newIndexPath: $0.newIndexPath)
            })
    }

    /// Core Data's per-change callbacks for one batch, in the contract's
    /// order: will, each section, each object, did. The delegate's default
    /// `controller(_:didChangeContentWith:)` calls this.
    package func reportEachChange(_ changes: FetchedResultsChanges, to delegate: any FetchedResultsControllerDelegate) {
        let hearing = beginHearing(calls: 2 + changes.sectionChanges.count + changes.objectChanges.count)
        delegate.controllerWillChangeContent(self)
        for change in changes.sectionChanges {
            let info =
                change.type == .insert
                ? sectionInfo(at: change.index)
                : FetchedResultsSection(
                    identifier: change.section, indexTitle: sectionIndexTitle(forSectionName: change.section.name),
                    numberOfObjects: 0, index: change.index, controller: nil)
            delegate.controller(self, didChange: info, atSectionIndex: change.index, for: change.type)
        }
        let handed = handedObjects
        let objects = handed?.objects ?? []
        objects.withUnsafeBufferPointer { objects in
            for (i, change) in changes.objectChanges.enumerated() {
                let id = engineID(change.id)
                if let j = handed?.index(at: i, id: id) {
                    // Borrowed from the handed list, which keeps it: no retain of each object
                    // (a cache miss each in a big batch) for a delegate that may not read it.
                    delegate.controller(
                        self, didChange: objects[j], at: change.indexPath, for: change.type, newIndexPath: change.newIndexPath)
                } else {
                    let object = resident[id] ?? managedObjectContext.object(with: change.id)
                    delegate.controller(self, didChange: object, at: change.indexPath, for: change.type, newIndexPath: change.newIndexPath)
                }
            }
        }
        delegate.controllerDidChangeContent(self)
        if hearing { endHearing(delegate) }
    }
}
