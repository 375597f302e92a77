import FolioStore

extension FetchedResultsController {
    typealias Candidate = BatchCandidate

    /// Turns one store change set into one batch for the engine and reports it.
    /// The batch's objects are kept sorted by ID in arrays (no per-change map),
    /// and their keys read in one query; with a to-one sort key and no
    /// predicate, the same query reads their related rows.
    /// - Complexity: O(k log k + k log n) for k changed objects.
    func process(_ changes: ChangeSet) {
        guard let plan else { return }
        var touched: [Candidate] = []
        touched.reserveCapacity(changes.inserted.count + changes.updated.count + changes.deleted.count)
        // This context's own changed objects are in memory: with plain keys, read them there.
        let readsMemory = changes.origin == .pending && plan.plainAttributes != nil
        var changed: [Int64] = []
        for id in changes.inserted where id.entityName == plan.entityName { touched.append((engineID(id), true)) }
        for id in changes.updated.keys where id.entityName == plan.entityName { touched.append((engineID(id), true)) }
        if readsMemory {
            changed = touched.map(\.id)
            radixSort(&changed)
        }
        var deleted: [Int64] = []
        for id in changes.deleted where id.entityName == plan.entityName { deleted.append(engineID(id)) }
        touched += deleted.lazy.map { ($0, true) }
        // Objects whose keys read a related object that changed, went or came back.
        relatedKeys.forEachDependent(of: changes) { touched.append(($0, false)) }
        // Objects an earlier batch could not read are read with this one.
        let retryOnly = touched.isEmpty
        touched += unread.take()
        guard !touched.isEmpty else { return }
        var candidates = mergeCandidates(touched)
        if let cacheName { ResultsCache.delete(name: cacheName) }
        radixSort(&deleted)
        func isDeleted(_ id: Int64) -> Bool { Self.position(of: id, in: deleted) { $0 } != nil }
        var keyed: [(Int64, [StoreValue])]
        var links: [(Int64, [StoreValue])] = []
        // The batch for the engine, in the order read (sorted when many), so that
        // it merges rather than sorts them; with the objects read, for the callbacks.
        var changeList: [ResultsRowChange<Int64, RowKey, SectionKey>] = []
        var objects: [ManagedObject] = [], objectIDs: [Int64] = []
        var present: [Bool] = []
        // Objects that only read a changed related object keep their links; the others may have new ones.
        let relinked = plan.related.isEmpty ? [] : candidates.compactMap { $0.changed && !isDeleted($0.id) ? $0.id : nil }
        do {
            if plan.isWindowed {
                // With a limit or offset, membership depends on rank: re-read the window.
                keyed = try fetchKeyRows(plan, restrictedTo: nil)
                loadWholeOrder()
                candidates = mergeCandidates(candidates + engine.allIDs().map { ($0, false) } + keyed.map { ($0.0, false) })
                links = relinked.isEmpty ? [] : try fetchRelatedRows(plan, restrictedTo: relinked)
            } else {
                let live: [Int64]
                if readsMemory, let keys = plan.objectKeys,
                    let rest = readInMemory(
                        keys, entity: plan.entityName, candidates, changed: changed, deleted: deleted,
                        into: &changeList, objects: &objects, ids: &objectIDs, present: &present)
                {
                    live = rest
                } else {
                    live = candidates.compactMap { isDeleted($0.id) ? nil : $0.id }
                }
                if !relinked.isEmpty && fetchRequest.predicate == nil && fetchRequest.stringFilters.isEmpty {
                    // Members and related rows are the same objects: one read for both.
                    (keyed, links) = try fetchKeyAndRelatedRows(plan, restrictedTo: live)
                } else {
                    keyed = try fetchKeyRows(plan, restrictedTo: live)
                    links = relinked.isEmpty ? [] : try fetchRelatedRows(plan, restrictedTo: relinked)
                }
            }
        } catch {
            // The store could not be read: say why, place now what the context
            // holds in memory, and read everything again once the store answers.
            lastError = error
            (candidates, keyed) = placeUnread(plan, candidates, deleted: deleted, placed: retryOnly)
            (changeList, objects, objectIDs, present) = ([], [], [], [])
            guard !candidates.isEmpty else { return }
        }
        relatedKeys.link(links, removed: deleted)
        if present.count != candidates.count {
            changeList.reserveCapacity(candidates.count)
            present = [Bool](repeating: false, count: candidates.count)
        }
        for (id, values) in keyed {
            guard let index = Self.position(of: id, in: candidates, { $0.id }) else { continue }
            changeList.append(ResultsRowChange(id: id, row: plan.row(id: id, values: values), objectChanged: candidates[index].changed))
            present[index] = true
        }
        for (index, candidate) in candidates.enumerated() where !present[index] {
            changeList.append(ResultsRowChange(id: candidate.id, row: nil, objectChanged: candidate.changed))
        }
        var sources: [Int32] = []
        loadWholeOrder()
        let report = engine.apply(distinct: changeList, sources: &sources)
        sectionCache = nil
        if fetchRequest.fetchBatchSize == 0 {
            for (index, candidate) in candidates.enumerated() where present[index] && resident[candidate.id] == nil {
                resident[candidate.id] = managedObjectContext.object(with: objectID(candidate.id))
            }
        }
        deliver(report, objects: objects.isEmpty ? nil : HandedObjects(ids: objectIDs, objects: objects, sources: sources))
        // Deleted objects were handed to the delegate as they last were; now let them go.
        for (index, candidate) in candidates.enumerated() where !present[index] { forget(candidate.id) }
    }

    /// Adds to `changes` the rows of the candidates this context changed
    /// (`changed`, sorted), read from the objects, which hold the values the
    /// store would give for them, with the objects and their IDs alongside
    /// (the first changes of the batch, so the same indexes); returns the
    /// others that are not deleted, for the store (nil, with nothing read,
    /// when the context has no such entity). One deleted here is left out
    /// (not present, so it goes). A big batch is read on several threads
    /// (see ``UnsafeMemoryRead``).
    /// - Complexity: O(k) object lookups for k candidates.
    func readInMemory(
        _ keys: ObjectKeys, entity: String, _ candidates: [Candidate], changed: [Int64], deleted: [Int64],
        into changes: inout [ResultsRowChange<Int64, RowKey, SectionKey>], objects: inout [ManagedObject],
        ids: inout [Int64], present: inout [Bool]
    ) -> [Int64]? {
        precondition(changes.isEmpty && objects.isEmpty && ids.isEmpty, "readInMemory: the batch's first rows are read here")
        // One lookup of the entity for the batch; an object not registered is read from the store.
        guard let registered = managedObjectContext.registeredRows(ofEntity: entity) else { return nil }
        let read = UnsafeMemoryRead(
            keys: keys, candidates: candidates, changed: changed, deleted: deleted, registered: registered,
            lanes: Lanes.count(for: changed.count))
        Lanes.run(read.lanes) { read.run(lane: $0) }
        // Room for the rows the store gives and the departures, so that no append regrows the list.
        let rest: [Int64]
        (changes, objects, ids, present, rest) = read.take(capacity: candidates.count)
        return rest
    }

    /// The index of `id` in an array sorted by ID, by binary search.
    static func position<T>(of id: Int64, in sorted: [T], _ key: (T) -> Int64) -> Int? {
        let low = lowerBound(of: id, in: sorted, key)
        return low < sorted.count && key(sorted[low]) == id ? low : nil
    }
}

/// The index of the first element of `sorted` (sorted by ID) whose ID is not below `id`.
func lowerBound<T>(of id: Int64, in sorted: [T], _ key: (T) -> Int64) -> Int {
    var low = 0, high = sorted.count
    while low < high {
        let mid = (low + high) / 2
        if key(sorted[mid]) < id { low = mid + 1 } else { high = mid }
    }
    return low
}
