/// Inserts many objects straight into the store in one transaction, as Core
/// Data's `NSBatchInsertRequest` does: from dictionaries keyed by attribute
/// name, or from a handler that fills one object's values at a time.
///
/// Unlike Core Data, every value is validated as a save validates it (type,
/// required, the attribute's rules) and unique constraints are enforced
/// (a clear error naming the entity, key and value; nothing is written),
/// and the new objects reach every context and every live
/// `FetchedResultsController`, in this process and in others, as one change.
/// Unlike Core Data it also sets to-one relationships, by the related
/// (saved) object or its ``ObjectID``, where the inverse is an unordered
/// to-many: the related objects hear the new members as a change of that
/// to-many. Other relationships of new objects start empty; a value a batch
/// cannot set is an error at `execute`, before anything is written.
///
///     let request = BatchInsertRequest<Planet>(objects: [
///         ["name": "Ceres", "position": 9],
///         ["name": "Eris", "position": 10],
///     ])
///     let result = try context.execute(request)   // result.count == 2
///     try context.execute(BatchInsertRequest<Item>(objects: [["name": "Lamp", "category": lighting.objectID]]))
public struct BatchInsertRequest<Entity: ManagedObject> {
    enum Source {
        case objects([[String: Any]])
        case dictionaries((inout [String: Any]) -> Bool)
        case values((inout BatchInsertValues<Entity>) -> Bool)
    }

    let source: Source
    /// How many objects a handler is expected to give (room is made for them).
    var expectedCount = 0
    /// What ``ObjectContext/execute(_:)-(BatchInsertRequest<Entity>)`` returns besides the count.
    public var resultType: BatchResultType = .statusOnly

    /// Inserts one object per dictionary of attribute names and values
    /// (attributes left out take their default values).
    ///
    ///     BatchInsertRequest<Planet>(objects: [["name": "Ceres", "position": 9]])
    public init(objects: [[String: Any]]) {
        source = .objects(objects)
    }

    /// Calls `handler` with an empty dictionary for each object until it
    /// returns true (that last dictionary is not inserted), as Core Data's
    /// `dictionaryHandler`.
    ///
    ///     var i = 0
    ///     BatchInsertRequest<Planet>(dictionaryHandler: { values in
    ///         if i == 1000 { return true }
    ///         values["name"] = "P\(i)"; i += 1
    ///         return false
    ///     })
    public init(dictionaryHandler handler: @escaping (inout [String: Any]) -> Bool) {
        source = .dictionaries(handler)
    }

    /// Calls `handler` with one object's values (defaults to begin with)
    /// until it returns true (those last values are not inserted), as Core
    /// Data's `managedObjectHandler`, typed by key path.
    ///
    ///     var i = 0
    ///     BatchInsertRequest<Planet>(handler: { (values: inout BatchInsertValues<Planet>) in
    ///         if i == 1000 { return true }
    ///         values[\.name] = "P\(i)"; i += 1
    ///         return false
    ///     })
    public init(handler: @escaping (inout BatchInsertValues<Entity>) -> Bool) {
        source = .values(handler)
    }

    /// A handler's request that expects to insert about `count` objects,
    /// so their values are gathered without growing again and again.
    package init(expecting count: Int, handler: @escaping (inout BatchInsertValues<Entity>) -> Bool) {
        source = .values(handler)
        expectedCount = max(0, count)
    }

    /// Every object's values, validated. Unique values are left to the
    /// store's unique indexes, which check them against the stored rows and
    /// the batch's own as they are written; a clash rolls the batch back.
    func rows(for e: EntityDescription) throws -> BatchRows {
        var rows = BatchRows(entity: e)
        let defaults = BatchRows.defaults(of: e)
        // Required values and rules, on every attribute (defaults included), as a save checks them.
        let checked = e.attributes.filter { !$0.isOptional || $0.hasRules }
        let required = e.toOnes.filter { !$0.isOptional }
        // Checked where it lands: no copy of each object's values on the way.
        func add(_ row: [StoreValue]) throws {
            let start = rows.values.count
            rows.values.append(contentsOf: row)
            for p in checked { rows.values[start + p.slot] = try p.checkedBatchValue(rows.values[start + p.slot]) }
            for p in required where rows.values[start + BatchRows.offset(of: p, in: e)].isNull {
                throw StoreError.validation(entity: e.name, key: p.name, reason: "a related object is required")
            }
            rows.count += 1
        }
        func fromDictionary(_ dictionary: [String: Any]) throws -> [StoreValue] {
            var values = defaults
            for (name, value) in dictionary {
                let p = try e.batchAttribute(named: name)
                values[BatchRows.offset(of: p, in: e)] = try p.checkedBatchValue(any: value)
            }
            return values
        }
        switch source {
        case .objects(let objects):
            rows.values.reserveCapacity(objects.count * defaults.count)
            for o in objects { try add(try fromDictionary(o)) }
        case .dictionaries(let handler):
            var dictionary: [String: Any] = [:]
            while !handler(&dictionary) {
                try add(try fromDictionary(dictionary))
                dictionary.removeAll(keepingCapacity: true)
            }
        case .values(let handler):
            rows.values.reserveCapacity(expectedCount * defaults.count)
            var values = BatchInsertValues<Entity>(entity: e)
            while !handler(&values) {
                if let misuse = values.misuse { throw misuse }
                try add(values.values)
                values.reset(to: defaults)
            }
        }
        return rows
    }
}
