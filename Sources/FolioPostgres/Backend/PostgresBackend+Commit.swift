import FolioStore

extension PostgresBackend {
    /// Writes one save as a single transaction holding the write lock:
    /// permanent IDs, deletes, inserts (many rows a statement), updates,
    /// relationship rows, positions, and the history row, announced with
    /// `NOTIFY` when it commits. On any failure nothing is written. Inside a
    /// write transaction it is a savepoint of that transaction.
    func commit(_ batch: SaveBatch, author: String) throws -> [ObjectID] {
        if !inWriteTransaction && !connection.isInTransaction && batch.inserts.isEmpty {
            if !isWriting { try beginWritingForSave(until: deadlineFromNow) }
            if try commitInOneRoundTrip(batch, author: author) {
                announceCommit()
                return []
            }
        }
        if inWriteTransaction {
            try connection.execute("SAVEPOINT folio_save")
        } else if !isWriting {
            try beginWritingForSave(until: deadlineFromNow)
        }
        do {
            let permanent = try allocateIDs(batch)
            var map: [ObjectID: ObjectID] = [:]
            if batch.refersToNewObjects {
                map.reserveCapacity(permanent.count)
                for (insert, id) in zip(batch.inserts, permanent) { map[insert.id] = id }
            }
            func row(_ id: ObjectID) -> StoreValue { .integer(id.isTemporary ? map[id]?.rowID ?? id.rowID : id.rowID) }

            // A write that matches no row at its version: changed or deleted by another save since it was read.
            var misses: [VersionMiss] = []
            let (deletes, updates) = versionedWrites(batch, row: row)
            for (d, statement) in zip(batch.deletes, deletes) {
                let written = try connection.query(statement.sql, statement.values)
                if written.rowCount == 0 { misses.append(VersionMiss(entity: d.entity, id: d.id, deleting: true)) }
            }
            try insertRows(batch, permanent, { $0.map(row) ?? .null })
            for (update, statement) in updates {
                let written = try connection.query(statement.sql, statement.values)
                if written.rowCount == 0 { misses.append(VersionMiss(entity: update.entity, id: update.id, deleting: false)) }
            }
            try throwIfStale(misses)
            for statement in relationshipWrites(batch, row: row) { try connection.query(statement.sql, statement.values) }
            try writeHistory(
                batch.changes.historyText(inserted: permanent), author: author,
                then: inWriteTransaction ? "RELEASE SAVEPOINT folio_save" : "COMMIT")
            return permanent
        } catch {
            if inWriteTransaction {
                try? connection.execute("ROLLBACK TO SAVEPOINT folio_save; RELEASE SAVEPOINT folio_save")
            } else {
                abandonWriting()
            }
            throw try clearerFailure(error, batch)
        }
    }

    /// A save of no new objects whose transaction has not started yet (its
    /// BEGIN and lock are deferred) goes to the server in one pipeline, with
    /// its history row and COMMIT: one round trip, where a save is mostly
    /// its round trips and statements. A versioned write that matches no row
    /// fails there (see ``checkedSQL(_:)``), so nothing is committed; then
    /// false is returned and the save is made again the general way, which
    /// names every object in conflict.
    private func commitInOneRoundTrip(_ batch: SaveBatch, author: String) throws -> Bool {
        func row(_ id: ObjectID) -> StoreValue { .integer(id.rowID) }
        let (deletes, updates) = versionedWrites(batch, row: row)
        var statements = (deletes + updates.map(\.1)).map { PGStatement(Self.checkedSQL($0.sql), $0.values) }
        statements += relationshipWrites(batch, row: row)
        if let history = historyStatement(batch.changes.historyText(inserted: []), author: author) { statements.append(history) }
        statements.append(PGStatement("COMMIT"))
        do {
            _ = try connection.pipeline(statements)
            return true
        } catch StoreError.server(_, Self.missedRowCode, _, _) {
            abandonWriting()
            return false
        } catch {
            abandonWriting()
            throw try clearerFailure(error, batch)
        }
    }

    /// The division by zero of ``checkedSQL(_:)``: nothing else in a save divides.
    private static let missedRowCode = "22012"

    /// A versioned write (`… RETURNING id`) that fails on the server when it
    /// matches no row, so that a pipeline stops before its COMMIT.
    static func checkedSQL(_ write: String) -> String {
        "WITH written AS (\(write)) SELECT 1 / count(*)::int FROM written"
    }

    /// The deletes and updates of a save, each checking the row's version
    /// (`RETURNING id`: no row means another save changed or deleted it).
    private func versionedWrites(_ batch: SaveBatch, row: (ObjectID) -> StoreValue)
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
    private func relationshipWrites(_ batch: SaveBatch, row: (ObjectID) -> StoreValue) -> [PGStatement] {
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

    /// A failed save's error; the deferred foreign keys' refusal at commit
    /// says which relationship, and why.
    private func clearerFailure(_ error: any Error, _ batch: SaveBatch) throws -> any Error {
        if case StoreError.server(_, "23503", _, _) = error, let clear = try? danglingReferenceError(batch) { return clear }
        return error
    }

    /// Inserts each entity's new rows, a run of one entity's rows at a time.
    private func insertRows(_ batch: SaveBatch, _ permanent: [ObjectID], _ ref: (ObjectID?) -> StoreValue) throws {
        var index = 0
        while index < batch.inserts.count {
            let entity = batch.inserts[index].entity
            var end = index
            while end < batch.inserts.count && batch.inserts[end].entity === entity { end += 1 }
            let start = index
            try insertMany(entity, columns: entity.attributes + entity.toOnes, count: end - start) { i, values in
                let insert = batch.inserts[start + i]
                values.append(.integer(permanent[start + i].rowID))
                values += insert.attrs
                values += insert.ones.map(ref)
            }
            index = end
        }
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
        let width = max(1, columns.count)
        let limit = min(1000, 60_000 / width)
        let names = columns.map(quote).joined(separator: ", ")
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
            try connection.query("INSERT INTO \(quote(table)) (\(names)) VALUES \(tuples.joined(separator: ", "))", values)
            index = end
        }
    }

    /// Writes a history row (none for an empty change), announces its
    /// position and author with NOTIFY at commit, and ends the save with
    /// `finish` (COMMIT, or a savepoint's RELEASE), all in one round trip:
    /// a prepared statement and `finish` in one pipeline.
    func writeHistory(_ history: String, author: String, then finish: String) throws {
        guard let statement = historyStatement(history, author: author) else { return try connection.execute(finish) }
        try connection.query(statement.sql, statement.values, then: [finish])
        if finish == "COMMIT" { announceCommit() }
    }

    /// Tells this process's feeds that a save committed: their next read
    /// asks the server, before the save's notification comes back.
    func announceCommit() {
        PostgresFeedHub.committed(uri: server.uri, namespace: namespace)
    }

    /// The statement writing a history row and its NOTIFY; nil for an empty change.
    func historyStatement(_ history: String, author: String) -> PGStatement? {
        guard !history.isEmpty else { return nil }
        // The payload is "position author": small, far below the server's 8,000-byte cap.
        return PGStatement(
            """
            WITH h AS (INSERT INTO folio_history (author, changes) VALUES ($1, $2) RETURNING position)
            SELECT pg_notify($3, position::text || ' ' || $1) FROM h
            """, [.text(author), .text(history), .text(PostgresServer.channel(namespace))])
    }

    /// Reserves consecutive IDs per entity past both the sequence and the
    /// largest ID in the table (rows inserted by other clients never collide).
    private func allocateIDs(_ batch: SaveBatch) throws -> [ObjectID] {
        var next: [String: Int64] = [:]
        var result: [ObjectID] = []
        result.reserveCapacity(batch.inserts.count)
        for insert in batch.inserts {
            let name = insert.entity.name
            let n = try next[name] ?? firstFreeID(name)
            guard n < ReplicaIDs.ordinaryLimit else {
                throw StoreError.constraintViolation(entity: name, key: "id", value: "\(n), the largest possible")
            }
            result.append(ObjectID(entityName: name, rowID: n))
            next[name] = n + 1
        }
        for (name, n) in next {
            try connection.query(
                "INSERT INTO folio_sequence (entity, next) VALUES ($1, $2) ON CONFLICT (entity) DO UPDATE SET next = EXCLUDED.next",
                [.text(name), .integer(n)])
        }
        return result
    }

    /// Below ``ReplicaIDs/ordinaryLimit``: the IDs above it are the replicas' (their rows never move this one on).
    func firstFreeID(_ entity: String) throws -> Int64 {
        var n: Int64 = 1
        if case .integer(let stored)? = try connection.scalar("SELECT next FROM folio_sequence WHERE entity = $1", [.text(entity)]) {
            n = stored
        }
        if case .integer(let largest)? = try connection.scalar(
            "SELECT max(id) FROM \(quote(entity)) WHERE id < $1",
            [.integer(ReplicaIDs.ordinaryLimit)])
        {
            n = max(n, largest + 1)
        }
        guard n < ReplicaIDs.ordinaryLimit else {
            throw StoreError.constraintViolation(
                entity: entity, key: "id", value: "\(n), past the last ID of clients that are not replicas")
        }
        return n
    }
}
