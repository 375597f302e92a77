import FolioStore

extension FetchedResultsController {
    /// Turns one store change set into one batch for the engine and reports it.
    /// - Complexity: O(k log n) for k changed objects.
    func process(_ changes: ChangeSet) {
        guard let plan else { return }
        var candidates: [Int64: Bool] = [:]     // row → the object itself changed
        for id in changes.inserted where id.entityName == plan.entityName { candidates[id.rowID] = true }
        for id in changes.updated.keys where id.entityName == plan.entityName { candidates[id.rowID] = true }
        for id in changes.deleted where id.entityName == plan.entityName { candidates[id.rowID] = true }
        if !plan.related.isEmpty {
            for (id, keys) in changes.updated where id.entityName != plan.entityName
                && plan.relatedKeyNames.map({ !keys.isDisjoint(with: $0) }) ?? true {
                for row in dependents[id.rowID] ?? [] where candidates[row] == nil { candidates[row] = false }
            }
        }
        guard !candidates.isEmpty else { return }
        if let cacheName { ResultsCache.delete(name: cacheName) }
        let deleted = Set(changes.deleted.filter { $0.entityName == plan.entityName }.map(\.rowID))
        let keyed: [(Int64, [StoreValue])]
        let links: [(Int64, [StoreValue])]
        // Objects that only read a changed related object keep their links; the others may have new ones.
        let relinked = plan.related.isEmpty ? [] : candidates.compactMap { $0.value && !deleted.contains($0.key) ? $0.key : nil }
        do {
            if plan.isWindowed {
                // With a limit or offset, membership depends on rank: re-read the window.
                keyed = try fetchKeyRows(plan, restrictedTo: nil)
                for id in engine.allIDs() where candidates[id] == nil { candidates[id] = false }
                for (id, _) in keyed where candidates[id] == nil { candidates[id] = false }
            } else {
                keyed = try fetchKeyRows(plan, restrictedTo: candidates.keys.filter { !deleted.contains($0) })
            }
            links = relinked.isEmpty ? [] : try fetchRelatedRows(plan, restrictedTo: relinked)
        } catch {
            // The store could not be read: keep the results as they were and say why;
            // `performFetch()` starts afresh.
            lastError = error
            return
        }
        updateRelated(plan, links, removed: Array(deleted))
        // In the fetched order (sorted when many), so that the engine merges rather than sorts them.
        var changeList: [ResultsRowChange<Int64, RowKey, SectionKey>] = []
        changeList.reserveCapacity(candidates.count)
        var present = Set<Int64>(minimumCapacity: keyed.count)
        for (id, values) in keyed where candidates[id] != nil {
            changeList.append(ResultsRowChange(id: id, row: plan.row(id: id, values: values), objectChanged: candidates[id]!))
            present.insert(id)
        }
        for (id, changed) in candidates where !present.contains(id) {
            changeList.append(ResultsRowChange(id: id, row: nil, objectChanged: changed))
        }
        let report = engine.apply(changeList)
        sectionCache = nil
        if fetchRequest.fetchBatchSize == 0 {
            for id in present where resident[id] == nil { resident[id] = managedObjectContext.object(with: objectID(id)) as? Entity }
        }
        deliver(report)
        // Deleted objects were handed to the delegate as they last were; now let them go.
        for (id, _) in candidates where !present.contains(id) { forget(id) }
    }

    func objectID(_ row: Int64) -> ObjectID { ObjectID(entityName: plan!.entityName, rowID: row) }

    /// Tells the delegate, the snapshot handler and the change-set streams.
    func deliver(_ report: ResultsChangeSet<Int64, SectionKey>) {
        guard !report.isEmpty, suppression == 0 else { return }
        if let delegate {
            delegate.controllerWillChangeContent(self)
            for change in report.sectionChanges {
                let info = change.type == .insert ? sectionInfo(at: change.index)
                    : FetchedResultsSection(name: sectionName(change.section), indexTitle: sectionIndexTitle(forSectionName: sectionName(change.section)),
                                            numberOfObjects: 0, index: change.index, controller: nil)
                delegate.controller(self, didChange: info, atSectionIndex: change.index, for: change.type)
            }
            for change in report.objectChanges {
                let object = resident[change.id] ?? managedObjectContext.object(with: objectID(change.id)) as! Entity
                delegate.controller(self, didChange: object, at: change.indexPath, for: change.type, newIndexPath: change.newIndexPath)
            }
            delegate.controllerDidChangeContent(self)
        }
        if let snapshotHandler {
            // Moved rows may have changed too; inserted ones get fresh cells anyway.
            let reconfigured = report.objectChanges.filter { $0.type == .update || $0.type == .move }.map { objectID($0.id) }
            snapshotHandler(snapshot(reconfiguring: reconfigured))
        }
        if broadcaster.hasListeners { broadcaster.yield(publicChangeSet(report)) }
    }

    func publicChangeSet(_ report: ResultsChangeSet<Int64, SectionKey>) -> ResultsChangeSet<ObjectID, String> {
        ResultsChangeSet(
            sectionChanges: report.sectionChanges.map { SectionChange(type: $0.type, index: $0.index, section: sectionName($0.section)) },
            objectChanges: report.objectChanges.map { ObjectChange(type: $0.type, id: objectID($0.id), indexPath: $0.indexPath, newIndexPath: $0.newIndexPath) })
    }

    /// The whole result set as identifiers.
    ///
    /// ```swift
    /// let snapshot = controller.snapshot()
    /// ```
    /// - Complexity: O(n).
    public func snapshot(reconfiguring reconfigured: [ObjectID] = []) -> ResultsSnapshot<ObjectID> {
        let sections = engine.snapshot()
        return ResultsSnapshot(sectionIdentifiers: sections.map { sectionName($0.section) },
                               itemIdentifiers: sections.map { $0.ids.map(objectID) },
                               reconfiguredItemIdentifiers: reconfigured)
    }
}
