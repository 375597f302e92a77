import FolioStore

/// A row as the server stores it: every stored column of its table (the
/// attributes, to-ones and position columns, in ``ReplicaRows/columns(of:)``
/// order) and its version.
struct ServerRow: Sendable {
    var id: Int64
    var values: [StoreValue]
    var version: Int64
}

/// A many-to-many table's row.
struct JoinRow: Hashable, Sendable {
    var a: Int64
    var b: Int64
    var aOrder: StoreValue
    var bOrder: StoreValue

    func hash(into hasher: inout Hasher) {
        hasher.combine(a)
        hasher.combine(b)
    }

    static func == (x: JoinRow, y: JoinRow) -> Bool { x.a == y.a && x.b == y.b }
}

/// One side of a many-to-many as the server holds it for some owners: the
/// rows whose `side` column is one of `owners`.
struct JoinRefresh {
    var table: String
    var side: String
    var entity: String
    var property: String
    var owners: [Int64]
    var rows: [JoinRow]

    /// Reads `property` (a many-to-many of `entity`) of `owners`; nil for a to-many stored otherwise.
    init?(_ c: PGConnection, _ entity: EntityDescription, _ property: PropertyDescription, owners: [Int64]) throws {
        guard case .joinTable(let table, let mine, _, _) = property.storage else { return nil }
        self.table = table
        side = mine
        self.entity = entity.name
        self.property = property.name
        self.owners = owners
        rows = try ReplicaRows.readJoin(c, table, side: mine, owners: owners)
    }

    /// A row's owner and member IDs, by this side.
    func ends(of row: JoinRow) -> (owner: Int64, member: Int64) {
        side == "a" ? (row.a, row.b) : (row.b, row.a)
    }
}

/// Reads rows from the server, whole, as a replica copies them.
enum ReplicaRows {
    /// The columns copied for an entity: every stored column but the version, by name.
    static func columns(of entity: EntityDescription) -> [String] {
        entity.storedColumns.keys.filter { $0 != RowVersion.column }.sorted()
    }

    /// The many-to-many tables of a schema (each once), with the entities of their two sides.
    static func joinTables(_ schema: Schema) -> [(table: String, a: String, b: String)] {
        schema.entities.flatMap { entity in
            entity.toManys.compactMap { p -> (String, String, String)? in
                guard case .joinTable(let table, "a", _, _) = p.storage else { return nil }
                return (table, entity.name, p.target.name)
            }
        }
    }

    /// The rows of `entity` (those of `ids` only, when given), in ID order.
    static func read(_ c: PGConnection, _ entity: EntityDescription, ids: [Int64]? = nil) throws -> [ServerRow] {
        let select = selectList(entity)
        if let ids {
            guard !ids.isEmpty else { return [] }
            return rows(
                try c.query(
                    "SELECT \(select) FROM \(quote(entity.name)) WHERE \(PostgresBackend.isOneOf("id")) ORDER BY id",
                    [PostgresBackend.idArray(ids)]), entity)
        }
        return rows(try c.query("SELECT \(select) FROM \(quote(entity.name)) ORDER BY id"), entity)
    }

    /// At most `limit` rows of `entity` with IDs above `after`, in ID order (a first sync's chunk).
    static func read(_ c: PGConnection, _ entity: EntityDescription, after: Int64, limit: Int) throws -> [ServerRow] {
        rows(
            try c.query(
                "SELECT \(selectList(entity)) FROM \(quote(entity.name)) WHERE id > $1 ORDER BY id LIMIT $2",
                [.integer(after), .integer(Int64(limit))]), entity)
    }

    private static func selectList(_ entity: EntityDescription) -> String {
        (["id"] + columns(of: entity).map(quote) + [RowVersion.column]).joined(separator: ", ")
    }

    private static func rows(_ r: PGResult, _ entity: EntityDescription) -> [ServerRow] {
        let columns = Self.columns(of: entity)
        var rows: [ServerRow] = []
        rows.reserveCapacity(r.rowCount)
        for row in 0..<r.rowCount {
            rows.append(
                ServerRow(
                    id: r.int64(row: row, column: 0), values: (0..<columns.count).map { r.value(row: row, column: $0 + 1) },
                    version: r.int64(row: row, column: columns.count + 1)))
        }
        return rows
    }

    /// At most `limit` rows of a many-to-many table after (`a`, `b`), in that order (a first sync's chunk).
    static func readJoin(_ c: PGConnection, _ table: String, after: (a: Int64, b: Int64), limit: Int) throws -> [JoinRow] {
        let r = try c.query(
            "SELECT a, b, a_order, b_order FROM \(quote(table)) WHERE (a, b) > ($1, $2) ORDER BY a, b LIMIT $3",
            [.integer(after.a), .integer(after.b), .integer(Int64(limit))])
        return (0..<r.rowCount).map {
            JoinRow(
                a: r.int64(row: $0, column: 0), b: r.int64(row: $0, column: 1),
                aOrder: r.value(row: $0, column: 2), bOrder: r.value(row: $0, column: 3))
        }
    }

    /// The rows of a many-to-many table (those whose `side` is one of `owners`, when given).
    static func readJoin(_ c: PGConnection, _ table: String, side: String = "a", owners: [Int64]? = nil) throws -> [JoinRow] {
        let select = "SELECT a, b, a_order, b_order FROM \(quote(table))"
        let r: PGResult
        if let owners {
            guard !owners.isEmpty else { return [] }
            r = try c.query(select + " WHERE \(PostgresBackend.isOneOf(side))", [PostgresBackend.idArray(owners)])
        } else {
            r = try c.query(select)
        }
        return (0..<r.rowCount).map {
            JoinRow(
                a: r.int64(row: $0, column: 0), b: r.int64(row: $0, column: 1),
                aOrder: r.value(row: $0, column: 2), bOrder: r.value(row: $0, column: 3))
        }
    }
}

extension ReplicaFile {
    /// Writes server rows into the replica: a row that is here takes the
    /// server's values but for the keys in `keep` (its waiting local
    /// changes, which stay on top) and one more local version, so every
    /// context here that read it sees it changed; a new row is inserted at
    /// the first version. The server version is recorded for each. A row
    /// whose unique value a waiting local save holds is deferred (a later
    /// pull writes it); returns the IDs it inserted and those it deferred.
    @discardableResult
    func upsert(
        _ entity: EntityDescription, _ rows: [ServerRow],
        keep: [Int64: Set<String>] = [:]
    ) throws -> (inserted: [Int64], deferred: [Int64]) {
        var result: (inserted: [Int64], deferred: [Int64]) = ([], [])
        let columns = ReplicaRows.columns(of: entity)
        let table = quote(entity.name)
        let insert =
            "INSERT INTO \(table) (\((["id"] + columns.map(quote) + [RowVersion.column]).joined(separator: ", "))) VALUES ("
            + Array(repeating: "?", count: columns.count + 2).joined(separator: ", ") + ")"
        for row in rows {
            let exists = try !connection.rows("SELECT 1 FROM \(table) WHERE id = ?", [.integer(row.id)]).isEmpty
            let key: [StoreValue] = [.text(entity.name), .integer(row.id)]
            do {
                if exists {
                    let kept = keep[row.id] ?? []
                    let written = columns.indices.filter { !kept.contains(columns[$0]) }
                    let sets = written.map { "\(quote(columns[$0])) = ?" } + ["\(RowVersion.column) = \(RowVersion.column) + 1"]
                    try connection.run(
                        "UPDATE \(table) SET \(sets.joined(separator: ", ")) WHERE id = ?",
                        written.map { row.values[$0] } + [.integer(row.id)])
                } else {
                    try connection.run(insert, [.integer(row.id)] + row.values + [.integer(RowVersion.first)])
                    result.inserted.append(row.id)
                }
            } catch StoreError.sqlite(let code, _, _) where code & 0xff == 19 {  // SQLITE_CONSTRAINT: only this statement was undone
                try connection.run("INSERT OR IGNORE INTO folio_replica_deferred (entity, id) VALUES (?, ?)", key)
                result.deferred.append(row.id)
                continue
            }
            try connection.run("DELETE FROM folio_replica_deferred WHERE entity = ? AND id = ?", key)
            try connection.run(
                """
                INSERT INTO folio_replica_rows (entity, id, version) VALUES (?, ?, ?)
                ON CONFLICT (entity, id) DO UPDATE SET version = excluded.version
                """, [.text(entity.name), .integer(row.id), .integer(row.version)])
        }
        return result
    }

    /// Inserts server rows into a table that has none of them (at the first
    /// local version), with their server versions: ``upsert(_:_:keep:)``
    /// without its look-ups, for a first sync. Each row's record goes first,
    /// so its trigger finds no row to copy the version to, and the row is
    /// inserted with it (one write of the row, not two).
    func insertNew(_ entity: EntityDescription, _ rows: [ServerRow]) throws {
        let columns = ReplicaRows.columns(of: entity)
        let names = ["id"] + columns.map(quote) + [RowVersion.column, ReplicaFile.serverVersionColumn]
        let insert =
            "INSERT INTO \(quote(entity.name)) (\(names.joined(separator: ", "))) VALUES ("
            + Array(repeating: "?", count: names.count).joined(separator: ", ") + ")"
        // Prepared once and bound in place: a first sync writes every row of the store through these two.
        let rowInsert = try connection.prepare(insert)
        let versionInsert = try connection.prepare("INSERT OR REPLACE INTO folio_replica_rows (entity, id, version) VALUES (?, ?, ?)")
        let name = StoreValue.text(entity.name)
        for row in rows {
            versionInsert.reset()
            try versionInsert.bind(name, at: 1)
            try versionInsert.bind(.integer(row.id), at: 2)
            try versionInsert.bind(.integer(row.version), at: 3)
            while try versionInsert.step() {}
            rowInsert.reset()
            try rowInsert.bind(.integer(row.id), at: 1)
            for (i, value) in row.values.enumerated() { try rowInsert.bind(value, at: Int32(i + 2)) }
            try rowInsert.bind(.integer(RowVersion.first), at: Int32(row.values.count + 2))
            try rowInsert.bind(.integer(row.version), at: Int32(row.values.count + 3))
            while try rowInsert.step() {}
        }
    }

    /// Removes rows the server deleted (their many-to-many rows go with them).
    func delete(_ entity: EntityDescription, ids: [Int64]) throws {
        for id in ids {
            try connection.run("DELETE FROM \(quote(entity.name)) WHERE id = ?", [.integer(id)])
            try connection.run(
                "DELETE FROM folio_replica_rows WHERE entity = ? AND id = ? AND pending = 0", [.text(entity.name), .integer(id)])
        }
    }

    /// Makes the many-to-many rows of `owners` (on `side`) those of the server.
    func replaceJoin(_ table: String, side: String, owners: [Int64], with rows: [JoinRow]) throws {
        for owner in owners { try connection.run("DELETE FROM \(quote(table)) WHERE \(side) = ?", [.integer(owner)]) }
        try insertJoin(table, rows)
    }

    func insertJoin(_ table: String, _ rows: [JoinRow]) throws {
        for row in rows {
            try connection.run(
                "INSERT OR REPLACE INTO \(quote(table)) (a, b, a_order, b_order) VALUES (?, ?, ?, ?)",
                [.integer(row.a), .integer(row.b), row.aOrder, row.bOrder])
        }
    }

    /// The replica's own history row for what the sync wrote: every
    /// container on the file hears it as one change set, as another process's save.
    func writeHistory(_ changes: ChangeSet, author: String) throws {
        let text = changes.historyText()
        guard !text.isEmpty else { return }
        try connection.run("INSERT INTO folio_history (author, changes) VALUES (?, ?)", [.text(author), .text(text)])
    }
}
