import FolioStore

extension FetchedResultsController {
    /// Each matching row's ID and key values, optionally only among `ids`.
    /// In the request's order only when it is windowed.
    /// - Complexity: one query; O(k log n) for k restricted IDs.
    func fetchKeyRows(_ plan: KeyPlan<Entity>, restrictedTo ids: [Int64]?) throws -> [(Int64, [StoreValue])] {
        if let ids, ids.isEmpty { return [] }
        return try managedObjectContext.fetchKeys(keyFetch(plan), restrictedToRows: ids.map { $0.map(storeRowID) })
            .map { (engineID($0.id), $0.values) }
    }

    /// The results of `plan` in an engine of their own, built from the
    /// store's rows as they are read when no object of the entity has unsaved
    /// changes (no list of a million rows and their values first), and from
    /// ``fetchKeyRows(_:restrictedTo:)`` when one has.
    /// - Complexity: one query; O(n log n).
    func engineFromStore(_ plan: KeyPlan<Entity>) throws -> Engine {
        let engine = Engine(fixedSection: engine.fixedSection)
        let fetch = try keyFetch(plan)
        var streamed = false
        try engine.load { add in
            // Stored rows only: a stored row's ID is its engine ID.
            streamed = try managedObjectContext.forEachStoredKey(fetch) { id, values in add(plan.row(id: id, values: values)) }
        }
        if !streamed { engine.load(try fetchKeyRows(plan, restrictedTo: nil).map { plan.row(id: $0.0, values: $0.1) }) }
        return engine
    }

    /// The prepared key fetch of `plan`, made once.
    private func keyFetch(_ plan: KeyPlan<Entity>) throws -> PreparedKeyFetch<Entity> {
        try preparedFetches.keys
            ?? {
                var request = fetchRequestForAll()
                // No ORDER BY unless a limit or offset needs one: the engine sorts what it loads
                // and places what changed. Ordered, SQLite walks the sort key's index and looks
                // each row up (O(n) page reads even for a few restricted IDs); unordered, it
                // reads the table once, or seeks each restricted ID.
                if !plan.isWindowed { request.sortDescriptors = [] }
                let fetch = try managedObjectContext.prepareKeyFetch(request, keyPaths: plan.keyPaths)
                preparedFetches.keys = fetch
                return fetch
            }()
    }

    /// Each object's key values and related row IDs in one query, only among
    /// `ids`; for requests without a predicate or filters, whose members are
    /// every object, so that the related rows of the same objects come along.
    func fetchKeyAndRelatedRows(_ plan: KeyPlan<Entity>, restrictedTo ids: [Int64]) throws
        -> (keys: [(Int64, [StoreValue])], related: [(Int64, [StoreValue])])
    {
        guard !ids.isEmpty else { return ([], []) }
        let fetch =
            try preparedFetches.keysAndRelated
            ?? {
                var request = fetchRequestForAll()
                request.sortDescriptors = []
                let fetch = try managedObjectContext.prepareKeyFetch(request, keyPaths: plan.keyPaths + plan.relatedKeyPaths)
                preparedFetches.keysAndRelated = fetch
                return fetch
            }()
        let rows = try managedObjectContext.fetchKeys(fetch, restrictedToRows: ids.map(storeRowID))
        let width = plan.keyPaths.count
        var keys: [(Int64, [StoreValue])] = [], related: [(Int64, [StoreValue])] = []
        keys.reserveCapacity(rows.count)
        related.reserveCapacity(rows.count)
        for row in rows {
            let id = engineID(row.id)
            keys.append((id, Array(row.values[..<width])))
            related.append((id, Array(row.values[width...])))
        }
        return (keys, related)
    }

    /// The request as the controller runs it: no batching, and the
    /// context's unsaved changes included, since the controller follows them.
    func fetchRequestForAll(unordered: Bool = false) -> FetchRequest<Entity> {
        var request = fetchRequest
        request.fetchBatchSize = 0
        request.includesPendingChanges = true
        if unordered { request.sortDescriptors = [] }
        return request
    }

    /// Loads the objects for rows in one query.
    func prefetch(_ rows: [Int64]) throws -> [Int64: ManagedObject] {
        let objects = try managedObjectContext.objects(with: rows.map(objectID), as: Entity.self)
        return Dictionary(objects.map { (engineID($0.objectID), $0) }, uniquingKeysWith: { a, _ in a })
    }

    /// Each object's related row IDs (all objects of the entity, or only `ids`),
    /// ignoring the predicate: an object outside the results may enter them
    /// when a related object changes.
    func fetchRelatedRows(_ plan: KeyPlan<Entity>, restrictedTo ids: [Int64]?) throws -> [(Int64, [StoreValue])] {
        if let ids, ids.isEmpty { return [] }
        let fetch =
            try preparedFetches.related
            ?? {
                let fetch = try managedObjectContext.prepareKeyFetch(FetchRequest<Entity>(), keyPaths: plan.relatedKeyPaths)
                preparedFetches.related = fetch
                return fetch
            }()
        return try managedObjectContext.fetchKeys(fetch, restrictedToRows: ids.map { $0.map(storeRowID) })
            .map { (engineID($0.id), $0.values) }
    }
}
