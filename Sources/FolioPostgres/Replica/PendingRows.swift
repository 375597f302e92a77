import FolioStore

/// What the waiting local saves write, row by row: a pull keeps these on top
/// of the server's values until the saves are pushed (and resolved then).
struct PendingRows {
    var inserted: Set<RowKey> = []
    var deleted: Set<RowKey> = []
    var keys: [RowKey: Set<String>] = [:]
    var adds: [OutboxEntry.Link] = []
    var removes: [OutboxEntry.Link] = []

    init() {}

    init(_ entries: [OutboxEntry]) {
        for entry in entries {
            for i in entry.inserts { inserted.insert(RowKey(i.entity, i.id)) }
            for u in entry.updates { keys[RowKey(u.entity, u.id), default: []].formUnion(u.keys) }
            for d in entry.deletes { deleted.insert(RowKey(d.entity, d.id)) }
            adds += entry.adds
            removes += entry.removes
            // An ordered to-many's positions live in its members' rows or its join rows, which are kept as a whole.
            for o in entry.orders { keys[RowKey(o.entity, o.owner), default: []].insert(o.property) }
        }
    }

    /// The kept keys of an entity's rows, by ID.
    func keys(of entity: String) -> [Int64: Set<String>] {
        var result: [Int64: Set<String>] = [:]
        for (row, names) in keys where row.entity == entity { result[row.id] = names }
        return result
    }

    /// Whether `owner` has a waiting change to the to-many `property`.
    func changes(_ entity: String, _ owner: Int64, _ property: String) -> Bool {
        keys[RowKey(entity, owner)]?.contains(property) == true
    }
}

extension OutboxEntry.Link {
    /// The many-to-many row the link names: its table and its `a` and `b` IDs; nil for a property stored otherwise.
    func joinRow(in schema: Schema) -> (table: String, a: Int64, b: Int64)? {
        guard let p = schema.entity(named: entity)?.byName[property], case .joinTable(let table, let mine, _, _) = p.storage else { return nil }
        return mine == "a" ? (table, owner, member) : (table, member, owner)
    }
}
