import FolioStore

// How the controller follows its context, as Core Data's does: each processed
// batch of the context's own unsaved changes (`.pending`) and each save of
// another context or process is one report; its own save only turns
// temporary IDs into permanent ones, which moves nothing and reports nothing.

extension FetchedResultsController {
    /// Starts following the context, once.
    func followContext() {
        guard observation == nil else { return }
        observation = managedObjectContext.observeChanges { [weak self] changes in self?.follow(changes) }
    }

    func follow(_ changes: ChangeSet) {
        if changes.isReload { return reloadAfterMissedHistory() }
        switch changes.origin {
        case .thisContext: adoptPermanentIDs(changes.permanentIDs)
        case .pending, .otherContext, .otherProcess: process(changes)
        }
    }

    /// A save of this context: every change was reported in an earlier
    /// batch; new objects now have permanent IDs, which sort where their
    /// temporary ones did (see ``AnyFetchedResultsController/engineID(_:)``),
    /// so the delegate hears nothing and the snapshot handler gets the
    /// renamed snapshot. Where another process drew IDs between this save's
    /// and its commit, a permanent ID can sort after a row with an equal
    /// key that the temporary one sorted before: that row moves, and the
    /// delegate hears the move.
    /// - Complexity: O(k log k) for k new objects.
    func adoptPermanentIDs(_ mapping: [ObjectID: ObjectID]) {
        guard !mapping.isEmpty else { return }
        loadWholeOrder()
        var rows: [Int64: Int64] = [:]  // engine IDs of this entity
        for (temporary, permanent) in mapping where temporary.entityName == entityName {
            rows[engineID(temporary)] = engineID(permanent)
        }
        let (renamed, moved) = engine.renameIDs(rows)
        resident.rename(rows)
        relatedKeys.rename(rows: rows, related: mapping)
        if !moved.isEmpty {
            sectionCache = nil
            return deliver(moved)
        }
        // A snapshot names objects by ID: a diffable data source needs the new ones (Core Data sends them too),
        // but only when some are in the results; new objects the request leaves out change nothing it shows.
        if renamed > 0, suppression == 0, let snapshotHandler { snapshotHandler(snapshot()) }
    }
}
