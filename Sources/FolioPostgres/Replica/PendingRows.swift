import FolioStore

/// What the waiting local saves write, row by row: a pull keeps these on top
/// of the server's values until the saves are pushed (and resolved then).
struct PendingRows {
    var inserted: Set<RowKey> = []
    var deleted: Set<RowKey> = []
    var keys: [RowKey: Set<String>] = [:]
    /// The many-to-many rows they add (true) or remove, in the order the saves made them.
    var links: [(link: OutboxEntry.Link, add: Bool)] = []

    init() {}

    init(_ entries: [OutboxEntry]) {
        for entry in entries {
            for i in entry.inserts { inserted.insert(RowKey(i.entity, i.id)) }
            for u in entry.updates { keys[RowKey(u.entity, u.id), default: []].formUnion(u.keys) }
            for d in entry.deletes { deleted.insert(RowKey(d.entity, d.id)) }
            links += entry.removes.map { ($0, false) } + entry.adds.map { ($0, true) }
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

    /// Writes the waiting saves' many-to-many changes again over rows the
    /// server's were written to (a link to a row that is gone here is left out).
    func replayLinks(_ schema: Schema, into file: ReplicaFile) throws {
        for (link, add) in links {
            guard let p = schema.entity(named: link.entity)?.byName[link.property], case .joinTable(let table, let mine, _, _) = p.storage else { continue }
            let (a, b) = mine == "a" ? (link.owner, link.member) : (link.member, link.owner)
            if add {
                let (aEntity, bEntity) = mine == "a" ? (link.entity, p.target.name) : (p.target.name, link.entity)
                try file.connection.run("""
                    INSERT OR IGNORE INTO \(quote(table)) (a, b) SELECT ?, ?
                    WHERE EXISTS (SELECT 1 FROM \(quote(aEntity)) WHERE id = ?) AND EXISTS (SELECT 1 FROM \(quote(bEntity)) WHERE id = ?)
                    """, [.integer(a), .integer(b), .integer(a), .integer(b)])
            } else {
                try file.connection.run("DELETE FROM \(quote(table)) WHERE a = ? AND b = ?", [.integer(a), .integer(b)])
            }
        }
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
