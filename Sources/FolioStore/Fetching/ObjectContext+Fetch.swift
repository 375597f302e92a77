import Foundation

extension ObjectContext {
    /// Fetches the objects a request matches, sorted, including this
    /// context's unsaved inserts, changes and deletes. With `fetchBatchSize`
    /// above 0 the result keeps only IDs resident and loads objects a batch at a time.
    ///
    ///     let planets = try context.fetch(FetchRequest<Planet>(sortBy: [SortDescriptor(\.position)]))
    ///
    /// - Complexity: one query, O(n log n) when unsaved changes must be merged in.
    public func fetch<T: ManagedObject>(_ request: FetchRequest<T>) throws -> FetchResults<T> {
        let e = schema.entity(for: T.self)
        if request.fetchBatchSize > 0 {
            return FetchResults(ids: try fetchIDs(request), context: self, batchSize: request.fetchBatchSize)
        }
        let plan = try makePlan(request, keyPaths: [])
        if try pendingObjects(of: e, request, plan).isEmpty {
            let rows = try withStore { try $0.fetchRows(plan) }
            return FetchResults(objects: rows.map { materialise(e, $0.0, $0.1) as! T })
        }
        return FetchResults(objects: try objects(with: fetchIDs(request), as: T.self))
    }

    /// `fetch` where an array is wanted, as Core Data returns one: every
    /// object is loaded, whatever the batch size.
    ///
    ///     var planets: [Planet] = []
    ///     planets = try context.fetch(FetchRequest<Planet>(sortBy: [SortDescriptor(\.position)]))
    @_disfavoredOverload
    public func fetch<T: ManagedObject>(_ request: FetchRequest<T>) throws -> [T] {
        var whole = request
        whole.fetchBatchSize = 0
        return Array(try fetch(whole) as FetchResults<T>)
    }

    /// The IDs a request matches, in order, without loading objects.
    ///
    ///     let ids = try context.fetchIDs(FetchRequest<Planet>())
    public func fetchIDs<T: ManagedObject>(_ request: FetchRequest<T>) throws -> [ObjectID] {
        let e = schema.entity(for: T.self)
        let plan = try makePlan(request, keyPaths: [], withSortKeys: false)
        guard try pendingObjects(of: e, request, plan).isEmpty else { return try fetchKeys(request, keyPaths: []).map(\.id) }
        let name = e.name
        return try withStore { try $0.fetchKeys(plan) }.map { ObjectID(entityName: name, rowID: $0.0) }
    }

    /// Each matching object's ID with the values of `keyPaths` (attributes,
    /// to-one relationships, or attributes through to-ones), in the request's
    /// order, without materialising objects. `restrictedTo` limits the fetch
    /// to those IDs (to re-check a few changed objects against a predicate).
    ///
    ///     try context.fetchKeys(request, keyPaths: [\Animal.commonName], restrictedTo: changedIDs)
    ///
    /// - Complexity: one query; O(n log n) when unsaved changes must be merged in.
    package func fetchKeys<T: ManagedObject>(
        _ request: FetchRequest<T>, keyPaths: [PartialKeyPath<T>],
        restrictedTo ids: Set<ObjectID>? = nil
    ) throws -> [FetchedKeys] {
        let prepared = try prepareKeyFetch(request, keyPaths: keyPaths)
        let name = prepared.entity.name
        return try fetchKeys(prepared, restrictedToRows: ids.map { $0.compactMap { $0.entityName == name ? $0.rowID : nil } })
    }

    /// How many objects a request matches (unsaved changes included).
    ///
    ///     let n = try context.count(for: FetchRequest<Planet>())
    public func count<T: ManagedObject>(for request: FetchRequest<T>) throws -> Int {
        let e = schema.entity(for: T.self)
        let plan = try makePlan(request, keyPaths: [])
        if try pendingObjects(of: e, request, plan).isEmpty {
            return try withStore { try $0.count(plan) }
        }
        return try fetchKeys(request, keyPaths: []).count
    }

    /// The objects for IDs, loading all missing ones of an entity in one
    /// query; IDs whose rows are gone are skipped. Order is kept.
    ///
    ///     let animals = try context.objects(with: ids, as: Animal.self)
    public func objects<T: ManagedObject>(with ids: [ObjectID], as type: T.Type = T.self) throws -> [T] {
        var missing: [String: [Int64]] = [:]
        for id in ids where !id.isTemporary {
            if let o = registry[id], !o.isFault { continue }
            missing[id.entityName, default: []].append(id.rowID)
        }
        var keep: [ManagedObject] = []
        for (name, rowIDs) in missing {
            guard let e = schema.entity(named: name) else { continue }
            let rows = try withStore { try $0.rows(of: e, ids: rowIDs) }
            for (rowID, row) in rows { keep.append(materialise(e, rowID, row)) }
        }
        return withExtendedLifetime(keep) {
            ids.compactMap { id in
                guard let o = registry[id], !o.isFault, !o.isDeletedFlag else { return nil }
                return o as? T
            }
        }
    }

    /// The values of key paths for an object, as the store sorts them; use
    /// with ``StoreValue/compare(_:_:ascending:)`` to order objects exactly as a fetch does.
    ///
    ///     let key = try context.keyValues(of: animal, keyPaths: [\Animal.classification?.order])
    public func keyValues<T: ManagedObject>(of object: T, keyPaths: [PartialKeyPath<T>]) throws -> [StoreValue] {
        try keyPaths.map { value(of: object, through: try object.meta.resolve(keyPath: $0)) }
    }

    func value(of object: ManagedObject, through chain: [PropertyDescription]) -> StoreValue {
        var current = object
        for p in chain.dropLast() {
            if current.isFault { fulfill(current) }
            guard let next = current.ones[p.slot] else { return .null }
            current = self.object(with: next)
        }
        let last = chain.last!
        if current.isFault { fulfill(current) }
        if last.isAttribute { return current.attrs[last.slot] }
        return current.ones[last.slot].map { .integer($0.rowID) } ?? .null
    }

    func matches<T>(_ filter: StringFilter<T>, _ o: ManagedObject) -> Bool {
        filter.keyPaths.contains { keyPath in
            guard let chain = try? o.meta.resolve(keyPath: keyPath), case .text(let s) = value(of: o, through: chain) else { return false }
            return filter.matches(s)
        }
    }

    func sortKeyPath<T>(_ d: SortDescriptor<T>) throws -> AnyKeyPath {
        guard let kp = d.keyPath else { throw StoreError.unsupportedPredicate("a sort descriptor without a key path") }
        return kp
    }

    /// Translates a request (predicate, string filters, sorts, limit) and key columns into a plan.
    func makePlan<T>(_ request: FetchRequest<T>, keyPaths: [PartialKeyPath<T>], withSortKeys: Bool = false) throws -> FetchPlan {
        let e = schema.entity(for: T.self)
        try request.checkEntityName(e)
        let b = SQLQueryBuilder(root: e, dialect: coordinator.dialect)
        var conditions: [String] = []
        if let p = request.predicate { conditions.append(try PredicateSupport.condition(p, b)) }
        for f in request.stringFilters { conditions.append(try f.condition(b)) }
        var plan = FetchPlan(entity: e)
        plan.orderBy = try request.sortDescriptors.map { d in
            (b.column(for: try e.resolve(keyPath: try sortKeyPath(d))), d.order == .forward)
        }
        plan.keyColumns = (withSortKeys ? plan.orderBy.map(\.sql) : []) + (try keyPaths.map { b.column(for: try e.resolve(keyPath: $0)) })
        plan.joins = b.joins
        plan.joined = b.joined
        plan.whereSQL = conditions.isEmpty ? nil : conditions.joined(separator: " AND ")
        plan.bindings = b.bindings
        plan.limit = request.fetchLimit > 0 ? request.fetchLimit : nil
        plan.offset = request.fetchOffset > 0 ? request.fetchOffset : nil
        return plan
    }
}
