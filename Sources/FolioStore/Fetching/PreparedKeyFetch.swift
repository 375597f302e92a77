/// A key fetch translated once — its SQL, bindings and joins, and the key
/// paths resolved for objects evaluated in memory — to run again and again
/// with other restrictions. A results controller reads each save's changed
/// rows with one, instead of translating its request on every save.
///
/// It belongs to the context that prepared it and holds the request as it
/// was then: prepare another when the request changes.
///
/// ```swift
/// let keys = try context.prepareKeyFetch(request, keyPaths: [\Animal.commonName])
/// let changed = try context.fetchKeys(keys, restrictedToRows: [12, 40])
/// ```
package struct PreparedKeyFetch<T: ManagedObject> {
    let request: FetchRequest<T>
    let entity: EntityDescription
    /// The plan with the sort keys' columns first, then the key paths'.
    let plan: FetchPlan
    /// The sort keys' and the key paths' properties, for objects evaluated in memory.
    let chains: [[PropertyDescription]]
}

extension ObjectContext {
    /// Translates `request` and resolves `keyPaths` once, for ``fetchKeys(_:restrictedToRows:)``.
    ///
    /// ```swift
    /// let keys = try context.prepareKeyFetch(request, keyPaths: [\Animal.commonName])
    /// ```
    package func prepareKeyFetch<T: ManagedObject>(_ request: FetchRequest<T>, keyPaths: [PartialKeyPath<T>]) throws -> PreparedKeyFetch<T>
    {
        let e = schema.entity(for: T.self)
        let plan = try makePlan(request, keyPaths: keyPaths, withSortKeys: true)
        let chains = try (request.sortDescriptors.map { try sortKeyPath($0) } + keyPaths.map { $0 as AnyKeyPath })
            .map { try e.resolve(keyPath: $0) }
        return PreparedKeyFetch(request: request, entity: e, plan: plan, chains: chains)
    }

    /// ``fetchKeys(_:keyPaths:restrictedTo:)`` for a prepared fetch, restricted
    /// to the objects of its entity with these row IDs (temporary ones negative) when given.
    ///
    /// ```swift
    /// let changed = try context.fetchKeys(keys, restrictedToRows: [12, 40])
    /// ```
    /// - Complexity: one query; O(n log n) when unsaved changes must be merged in.
    package func fetchKeys<T: ManagedObject>(_ prepared: PreparedKeyFetch<T>, restrictedToRows rows: [Int64]?) throws -> [FetchedKeys] {
        let e = prepared.entity, request = prepared.request
        var plan = prepared.plan
        var pending = try pendingObjects(of: e, request, plan)
        if let rows {
            let wanted = Set(rows)
            pending = pending.filter { wanted.contains($0.objectID.rowID) }
            // Objects with unsaved changes are evaluated in memory: the store need not read them.
            let inMemory = Set(pending.lazy.map(\.objectID.rowID))
            plan.restrictToIDs = wanted.filter { $0 >= 0 && !inMemory.contains($0) }.sorted()
        }
        let sortCount = request.sortDescriptors.count
        // Rows another process saved, heard with the change set being merged: no read (sorted and cut below).
        let heard = plan.restrictToIDs.flatMap { heardKeys(prepared, rows: $0) }
        if pending.isEmpty && heard == nil {
            plan.keyColumns.removeFirst(sortCount)
            let rows = try readKeys(prepared, plan)
            return rows.map { FetchedKeys(id: ObjectID(entityName: e.name, rowID: $0.0), values: $0.1) }
        }
        // Merge unsaved changes: stored rows minus changed objects, plus changed objects that match.
        plan.limit = nil
        plan.offset = nil
        let excluded = Set(pending.map(\.objectID))
        // Heard rows leave out the changed objects already (they are not among the rows asked for).
        var all =
            plan.restrictToIDs?.isEmpty == true
            ? []
            : try heard
                ?? readKeys(prepared, plan).map { (ObjectID(entityName: e.name, rowID: $0.0), $0.1) }
                .filter { !excluded.contains($0.0) }
        for o in pending where !o.isDeletedFlag {
            if let p = request.predicate, !(try p.evaluate(o as! T)) { continue }
            if !request.stringFilters.allSatisfy({ matches($0, o) }) { continue }
            all.append((o.objectID, prepared.chains.map { value(of: o, through: $0) }))
        }
        let ascending = request.ascending
        if sortCount == 0 {
            all.sort { $0.0 < $1.0 }
        } else {
            all.sort { a, b in
                for i in 0..<sortCount {
                    let r = StoreValue.compare(a.1[i], b.1[i])
                    if r != .orderedSame { return (r == .orderedAscending) == (i < ascending.count ? ascending[i] : true) }
                }
                return a.0 < b.0
            }
        }
        let start = min(request.fetchOffset, all.count)
        let end = request.fetchLimit > 0 ? min(all.count, start + request.fetchLimit) : all.count
        return all[start..<end].map { FetchedKeys(id: $0.0, values: Array($0.1[sortCount...])) }
    }

    /// The store's keys for `plan`: a read of the rows it names, when it
    /// names them and reads nothing but their own columns (no key or
    /// condition through a relationship: no join, no subquery, whose values
    /// are bound, never spelled in the SQL).
    private func readKeys<T: ManagedObject>(_ prepared: PreparedKeyFetch<T>, _ plan: FetchPlan) throws -> [(Int64, [StoreValue])] {
        let ownColumns =
            prepared.chains.allSatisfy { $0.count == 1 } && plan.joins.isEmpty && plan.joined.isEmpty
            && !(plan.whereSQL?.contains("SELECT") ?? false)
        guard let ids = plan.restrictToIDs, ownColumns else {
            return try withStore { try $0.fetchKeys(plan) }
        }
        let name = prepared.entity.name
        return try withStore(readingRows: ids.lazy.map { ObjectID(entityName: name, rowID: $0) }) { try $0.fetchKeys(plan) }
    }

    /// ``fetchKeys(_:restrictedToRows:)`` of every matching stored row, a
    /// row at a time and in no order, when no object of the entity has
    /// unsaved changes; false (and `body` never called) when one has, for
    /// the caller to fetch them merged. Nothing is kept per row but what
    /// `body` keeps (a first fetch of a million rows builds its results
    /// straight from the rows).
    ///
    /// ```swift
    /// let streamed = try context.forEachStoredKey(keys) { rowID, values in rows.append((rowID, values[0])) }
    /// ```
    package func forEachStoredKey<T: ManagedObject>(
        _ prepared: PreparedKeyFetch<T>,
        _ body: (Int64, borrowing [StoreValue]) throws -> Void
    ) throws -> Bool {
        var plan = prepared.plan
        guard prepared.request.fetchLimit == 0, prepared.request.fetchOffset == 0,
            try pendingObjects(of: prepared.entity, prepared.request, plan).isEmpty
        else { return false }
        plan.keyColumns.removeFirst(prepared.request.sortDescriptors.count)
        try withStore { try $0.fetchKeys(plan, each: body) }
        return true
    }
}
