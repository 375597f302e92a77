import FolioStore

extension FetchedResultsController {
    /// Turns one store change set into one batch for the engine and reports it.
    /// - Complexity: O(k log n) for k changed objects.
    func process(_ changes: ChangeSet) {
        guard let plan else { return }
        var candidates: [Int64: Bool] = [:]     // row → the object itself changed
        for id in changes.inserted where id.entityName == plan.entityName { candidates[engineID(id)] = true }
        for id in changes.updated.keys where id.entityName == plan.entityName { candidates[engineID(id)] = true }
        for id in changes.deleted where id.entityName == plan.entityName { candidates[engineID(id)] = true }
        if !plan.related.isEmpty {
            for (id, keys) in changes.updated where id.entityName != plan.entityName
                && plan.relatedKeyNames.map({ !keys.isDisjoint(with: $0) }) ?? true {
                for row in dependents[id.rowID] ?? [] where candidates[row] == nil { candidates[row] = false }
            }
        }
        guard !candidates.isEmpty else { return }
        if let cacheName { ResultsCache.delete(name: cacheName) }
        let deleted = Set(changes.deleted.filter { $0.entityName == plan.entityName }.map(engineID))
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
            for id in present where resident[id] == nil { resident[id] = managedObjectContext.object(with: objectID(id)) }
        }
        deliver(report)
        // Deleted objects were handed to the delegate as they last were; now let them go.
        for (id, _) in candidates where !present.contains(id) { forget(id) }
    }
}
