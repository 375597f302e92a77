import FolioStore

// The statements of a save, and its history row.
extension PostgresBackend {
    /// The division by zero of ``checkedSQL(_:)``: nothing else in a save divides.
    static let missedRowCode = "22012"

    /// A versioned write (`… RETURNING id`) that fails on the server when it
    /// matches no row, so that a pipeline stops before its COMMIT.
    static func checkedSQL(_ write: String) -> String {
        "WITH written AS (\(write)) SELECT 1 / count(*)::int FROM written"
    }

    /// ``checkedSQL(_:)`` for a write of `count` rows (`… RETURNING` each):
    /// it fails the same way unless it wrote them all, and returns what
    /// `write` returns, then a column of ones.
    static func checkedSQL(_ write: String, rows count: Int) -> String {
        """
        WITH written AS (\(write))
        SELECT w.*, 1 / (c.n = \(count))::int FROM (SELECT count(*) AS n FROM written) c LEFT JOIN written w ON true
        """
    }

    /// The deletes and updates of a save, each checking the row's version
    /// (`RETURNING id`: no row means another save changed or deleted it).
    func versionedWrites(_ batch: SaveBatch, row: (ObjectID) -> StoreValue)
        -> (deletes: [PGStatement], updates: [(SaveBatch.Update, PGStatement)])
    {
        let deletes = batch.deletes.map { d in
            PGStatement(
                "DELETE FROM \(quote(d.entity.name)) WHERE id = $1 AND \(RowVersion.column) = $2 RETURNING id",
                [row(d.id), .integer(d.version)])
        }
        let updates = batch.updates.filter { !($0.attrs.isEmpty && $0.ones.isEmpty) }.map { update in
            let names = update.attrs.map(\.0.name) + update.ones.map(\.0.name)
            let sets =
                names.enumerated().map { "\(quote($0.element)) = $\($0.offset + 1)" }
                + ["\(RowVersion.column) = \(RowVersion.column) + 1"]
            let values = update.attrs.map(\.1) + update.ones.map { $0.1.map(row) ?? .null } + [row(update.id), .integer(update.version)]
            return (
                update,
                PGStatement(
                    """
                    UPDATE \(quote(update.entity.name)) SET \(sets.joined(separator: ", "))
                    WHERE id = $\(names.count + 1) AND \(RowVersion.column) = $\(names.count + 2) RETURNING id
                    """, values)
            )
        }
        return (deletes, updates)
    }

    /// A save's many-to-many rows and ordered positions.
    func relationshipWrites(_ batch: SaveBatch, row: (ObjectID) -> StoreValue) -> [PGStatement] {
        var statements: [PGStatement] = []
        for m in batch.joinRemoves {
            guard case .joinTable(let table, let mine, let other, _) = m.property.storage else { continue }
            statements.append(
                PGStatement("DELETE FROM \(quote(table)) WHERE \(mine) = $1 AND \(other) = $2", [row(m.owner), row(m.member)]))
        }
        for m in batch.joinAdds {
            guard case .joinTable(let table, let mine, let other, _) = m.property.storage else { continue }
            statements.append(
                PGStatement(
                    "INSERT INTO \(quote(table)) (\(mine), \(other)) VALUES ($1, $2) ON CONFLICT DO NOTHING",
                    [row(m.owner), row(m.member)]))
        }
        for o in batch.orders {
            statements += dialect.positionWrites(o, row: row).map { PGStatement($0.sql, $0.values) }
        }
        return statements
    }

    /// Each entity's new rows, a run of one entity's rows at a time.
    func insertStatements(_ batch: SaveBatch, _ permanent: [ObjectID], _ row: (ObjectID) -> StoreValue) -> [PGStatement] {
        var statements: [PGStatement] = []
        var index = 0
        while index < batch.inserts.count {
            let entity = batch.inserts[index].entity
            var end = index
            while end < batch.inserts.count && batch.inserts[end].entity === entity { end += 1 }
            let start = index
            let columns = ["id"] + (entity.attributes + entity.toOnes).map(\.name)
            statements += Self.insertStatements(into: entity.name, columns: columns, count: end - start) { i, values in
                let insert = batch.inserts[start + i]
                values.append(.integer(permanent[start + i].rowID))
                values += insert.attrs
                values += insert.ones.map { $0.map(row) ?? .null }
            }
            index = end
        }
        return statements
    }

    /// Inserts `count` rows of an entity (its ID, then `columns`), as many
    /// rows per statement as the parameter limit allows; `row` appends row i's values.
    func insertMany(
        _ entity: EntityDescription, columns: [PropertyDescription], count: Int,
        _ row: (Int, inout [StoreValue]) -> Void
    ) throws {
        try insertMany(into: entity.name, columns: ["id"] + columns.map(\.name), count: count, row)
    }

    /// Inserts `count` rows into `table`'s `columns`, as many rows per
    /// statement as the parameter limit allows; `row` appends row i's values.
    func insertMany(into table: String, columns: [String], count: Int, _ row: (Int, inout [StoreValue]) -> Void) throws {
        for statement in Self.insertStatements(into: table, columns: columns, count: count, row) {
            try connection.query(statement.sql, statement.values)
        }
    }

    /// The statements of ``insertMany(into:columns:count:_:)``.
    static func insertStatements(into table: String, columns: [String], count: Int, _ row: (Int, inout [StoreValue]) -> Void)
        -> [PGStatement]
    {
        let width = max(1, columns.count)
        let limit = min(1000, 60_000 / width)
        let names = columns.map(quote).joined(separator: ", ")
        var statements: [PGStatement] = []
        var index = 0
        while index < count {
            let end = min(count, index + limit)
            var values: [StoreValue] = []
            values.reserveCapacity((end - index) * width)
            var tuples: [String] = []
            for i in index..<end {
                row(i, &values)
                let start = (i - index) * width
                tuples.append("(" + (1...width).map { "$\(start + $0)" }.joined(separator: ", ") + ")")
            }
            statements.append(PGStatement("INSERT INTO \(quote(table)) (\(names)) VALUES \(tuples.joined(separator: ", "))", values))
            index = end
        }
        return statements
    }

    /// Writes a history row (none for an empty change), announces it with
    /// NOTIFY at commit, and ends the save with `finish` (COMMIT, or a
    /// savepoint's RELEASE), all in one round trip. Every writer of history
    /// goes through here or ``historyStatement(_:author:)``.
    func writeHistory(_ history: String, author: String, then finish: String) throws {
        guard finish == "COMMIT" else {
            guard let statement = historyStatement(history, author: author) else { return try connection.execute(finish) }
            try connection.query(statement.sql, statement.values, then: [finish])
            return
        }
        try commitPipeline([], rows: [(author, history)])
    }

    /// Sends `statements` and the end of the transaction in one round trip:
    /// the deferred constraints checked, a history row for each of `rows`
    /// (a save's author and changes; one a save, none for an empty change),
    /// COMMIT, and the rows' announcement after it in a transaction of its
    /// own, when this process's notifier lets it (see ``PostgresNotifier``).
    /// Then tells this process's feeds of each save, and owes the
    /// announcement the rows went without.
    func commitPipeline(_ statements: [PGStatement], rows: [(author: String, history: String)]) throws {
        let insert = Self.historyStatement(rows, namespace: namespace)
        let authors = Set(rows.filter { !$0.history.isEmpty }.map(\.author))
        let notifier = PostgresNotifier.shared(server, namespace: namespace)
        let announcement = insert != nil && notifier.claim() ? notifier.announcement(author: authors.count == 1 ? authors.first : nil) : nil
        let (_, announced) = try connection.pipeline(
            statements + [PGStatement("SET CONSTRAINTS ALL IMMEDIATE")] + (insert.map { [$0] } ?? []) + [PGStatement("COMMIT")],
            trailing: announcement)
        for row in rows { announceCommit(owedBy: row.history.isEmpty || announced ? nil : row.author) }
    }

    /// Tells this process's feeds that a save committed: their next read
    /// asks the server, before the save's notification comes back. A save
    /// `owedBy` an author sent none: one goes out soon after its commit.
    func announceCommit(owedBy author: String? = nil) {
        PostgresFeedHub.committed(uri: server.uri, namespace: namespace)
        if let author { PostgresNotifier.shared(server, namespace: namespace).owe(author: author) }
    }

    /// The statement writing a history row and its NOTIFY; nil for an empty
    /// change. It takes no lock: the row's position is its mark (see
    /// ``PostgresHistory``), which readers pass only once every transaction
    /// that could still write below it has ended.
    func historyStatement(_ history: String, author: String) -> PGStatement? {
        Self.historyStatement(history, author: author, namespace: namespace)
    }

    /// One statement writing a history row for each of `rows` (author and
    /// changes; one transaction's saves, in their order) that changed
    /// something. With `announcing`, the rows are announced once, by the
    /// newest position and that author: listeners read everything committed
    /// when woken, so a NOTIFY per row would only queue more for each of
    /// them to read. Without it they go unannounced (the commit's
    /// announcement follows; see ``commitPipeline(_:rows:)``). Nil when no
    /// row changed anything.
    static func historyStatement(
        _ rows: [(author: String, history: String)], namespace: String?, announcing author: String? = nil
    ) -> PGStatement? {
        let rows = rows.filter { !$0.history.isEmpty }
        guard !rows.isEmpty else { return nil }
        let tuples = rows.indices.map { "(\(PostgresHistory.markSQL), $\(2 * $0 + 1), $\(2 * $0 + 2))" }
        let insert = "INSERT INTO folio_history (position, author, changes) VALUES \(tuples.joined(separator: ", "))"
        let values = rows.flatMap { [StoreValue.text($0.author), .text($0.history)] }
        guard let author else { return PGStatement(insert, values) }
        // The payload is "position author": small, far below the server's 8,000-byte cap.
        return PGStatement(
            """
            WITH h AS (\(insert) RETURNING position)
            SELECT pg_notify($\(values.count + 1), max(position)::text || ' ' || $\(values.count + 2)) FROM h
            """,
            values + [.text(PostgresServer.channel(namespace)), .text(author)])
    }

    /// ``historyStatement(_:author:)`` for the store in `namespace`.
    static func historyStatement(_ history: String, author: String, namespace: String?) -> PGStatement? {
        historyStatement([(author, history)], namespace: namespace, announcing: author)
    }
}
