import FolioStore

/// What the waiting local saves write, row by row: a pull keeps these on top
/// of the server's values until the saves are pushed (and resolved then).
/// Counted, so that a push can take its entry out (``remove(_:)``) and add
/// the saves made meanwhile (``add(_:)``) without reading the outbox again:
/// each entry is read once a round, however many wait.
struct PendingRows {
    private var insertedCounts: [RowKey: Int] = [:]
    private var deletedCounts: [RowKey: Int] = [:]
    /// By entity, by row, the count of entries writing each key.
    private var keyCounts: [String: [Int64: [String: Int]]] = [:]
    /// The many-to-many rows they add (true) or remove, in the order the saves made them (from `linkStart` on).
    private var allLinks: [(link: OutboxEntry.Link, add: Bool)] = []
    private var linkStart = 0

    init() {}

    init(_ entries: [OutboxEntry]) {
        for entry in entries { add(entry) }
    }

    /// Adds a newer waiting save.
    mutating func add(_ entry: OutboxEntry) { count(entry, by: 1) }

    /// Takes out the oldest waiting save (pushed).
    mutating func remove(_ entry: OutboxEntry) {
        count(entry, by: -1)
        linkStart += entry.removes.count + entry.adds.count
        if linkStart > 1024 && linkStart * 2 > allLinks.count {
            allLinks.removeFirst(linkStart)
            linkStart = 0
        }
    }

    private mutating func count(_ entry: OutboxEntry, by n: Int) {
        func bump(_ counts: inout [RowKey: Int], _ row: RowKey) {
            let value = counts[row, default: 0] + n
            counts[row] = value > 0 ? value : nil
        }
        func bump(_ row: RowKey, _ key: String) {
            // In place: a copy of an entity's counts would make each change cost them all.
            keyCounts[row.entity, default: [:]][row.id, default: [:]][key, default: 0] += n
            if keyCounts[row.entity]?[row.id]?[key] ?? 0 <= 0 { keyCounts[row.entity]?[row.id]?[key] = nil }
            if keyCounts[row.entity]?[row.id]?.isEmpty == true { keyCounts[row.entity]?[row.id] = nil }
        }
        for i in entry.inserts { bump(&insertedCounts, RowKey(i.entity, i.id)) }
        for u in entry.updates { for key in u.keys { bump(RowKey(u.entity, u.id), key) } }
        for d in entry.deletes { bump(&deletedCounts, RowKey(d.entity, d.id)) }
        if n > 0 { allLinks += entry.removes.map { ($0, false) } + entry.adds.map { ($0, true) } }
        // An ordered to-many's positions live in its members' rows or its join rows, which are kept as a whole.
        for o in entry.orders { bump(RowKey(o.entity, o.owner), o.property) }
    }

    var links: ArraySlice<(link: OutboxEntry.Link, add: Bool)> { allLinks[linkStart...] }

    func isInserted(_ row: RowKey) -> Bool { insertedCounts[row] != nil }

    func isDeleted(_ row: RowKey) -> Bool { deletedCounts[row] != nil }

    /// The rows a waiting save deletes.
    var deleted: Dictionary<RowKey, Int>.Keys { deletedCounts.keys }

    /// The kept keys of one row.
    func keys(_ entity: String, _ id: Int64) -> Set<String>? {
        keyCounts[entity]?[id].map { Set($0.keys) }
    }

    /// The kept keys of an entity's rows, by ID.
    func keys(of entity: String) -> [Int64: Set<String>] {
        (keyCounts[entity] ?? [:]).mapValues { Set($0.keys) }
    }

    /// Writes the waiting saves' many-to-many changes again over rows the
    /// server's were written to (a link to a row that is gone here is left out).
    func replayLinks(_ schema: Schema, into file: ReplicaFile) throws {
        for (link, add) in links {
            guard let p = schema.entity(named: link.entity)?.byName[link.property], case .joinTable(let table, let mine, _, _) = p.storage
            else { continue }
            let (a, b) = mine == "a" ? (link.owner, link.member) : (link.member, link.owner)
            if add {
                let (aEntity, bEntity) = mine == "a" ? (link.entity, p.target.name) : (p.target.name, link.entity)
                try file.connection.run(
                    """
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
        keyCounts[entity]?[owner]?[property] != nil
    }
}

extension OutboxEntry.Link {
    /// The many-to-many row the link names: its table and its `a` and `b` IDs; nil for a property stored otherwise.
    func joinRow(in schema: Schema) -> (table: String, a: Int64, b: Int64)? {
        guard let p = schema.entity(named: entity)?.byName[property], case .joinTable(let table, let mine, _, _) = p.storage else {
            return nil
        }
        return mine == "a" ? (table, owner, member) : (table, member, owner)
    }
}
