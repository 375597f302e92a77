import FolioStore

extension PostgresBackend {
    /// Writes one save as a single transaction holding the write lock:
    /// permanent IDs, deletes, inserts (many rows a statement), updates,
    /// relationship rows, positions, and the history row, announced with
    /// `NOTIFY` when it commits. On any failure nothing is written. Inside a
    /// write transaction it is a savepoint of that transaction.
    func commit(_ batch: SaveBatch, author: String) throws -> [ObjectID] {
        if inWriteTransaction { try connection.execute("SAVEPOINT folio_save") }
        else if !isWriting { try beginWritingForSave(until: deadlineFromNow) }
        do {
            let permanent = try allocateIDs(batch)
            var map: [ObjectID: ObjectID] = [:]
            if batch.refersToNewObjects {
                map.reserveCapacity(permanent.count)
                for (insert, id) in zip(batch.inserts, permanent) { map[insert.id] = id }
            }
            func row(_ id: ObjectID) -> StoreValue { .integer(id.isTemporary ? map[id]?.rowID ?? id.rowID : id.rowID) }
            func ref(_ id: ObjectID?) -> StoreValue { id.map(row) ?? .null }

            // A write that matches no row at its version: changed or deleted by another save since it was read.
            var misses: [VersionMiss] = []
            for d in batch.deletes {
                let r = try connection.query("DELETE FROM \(quote(d.entity.name)) WHERE id = $1 AND \(RowVersion.column) = $2 RETURNING id",
                                             [row(d.id), .integer(d.version)])
                if r.rowCount == 0 { misses.append(VersionMiss(entity: d.entity, id: d.id, deleting: true)) }
            }
            try insertRows(batch, permanent, ref)
            for update in batch.updates where !(update.attrs.isEmpty && update.ones.isEmpty) {
                let names = update.attrs.map(\.0.name) + update.ones.map(\.0.name)
                let sets = names.enumerated().map { "\(quote($0.element)) = $\($0.offset + 1)" }
                    + ["\(RowVersion.column) = \(RowVersion.column) + 1"]
                let r = try connection.query("""
                    UPDATE \(quote(update.entity.name)) SET \(sets.joined(separator: ", "))
                    WHERE id = $\(names.count + 1) AND \(RowVersion.column) = $\(names.count + 2) RETURNING id
                    """, update.attrs.map(\.1) + update.ones.map { ref($0.1) } + [row(update.id), .integer(update.version)])
                if r.rowCount == 0 { misses.append(VersionMiss(entity: update.entity, id: update.id, deleting: false)) }
            }
            try throwIfStale(misses)
            for m in batch.joinRemoves {
                guard case .joinTable(let table, let mine, let other, _) = m.property.storage else { continue }
                try connection.query("DELETE FROM \(quote(table)) WHERE \(mine) = $1 AND \(other) = $2", [row(m.owner), row(m.member)])
            }
            for m in batch.joinAdds {
                guard case .joinTable(let table, let mine, let other, _) = m.property.storage else { continue }
                try connection.query("INSERT INTO \(quote(table)) (\(mine), \(other)) VALUES ($1, $2) ON CONFLICT DO NOTHING",
                                     [row(m.owner), row(m.member)])
            }
            for o in batch.orders {
                for (sql, values) in dialect.positionWrites(o, row: row) { try connection.query(sql, values) }
            }
            try writeHistory(batch.changes.historyText(inserted: permanent), author: author,
                             then: inWriteTransaction ? "RELEASE SAVEPOINT folio_save" : "COMMIT")
            return permanent
        } catch {
            if inWriteTransaction { try? connection.execute("ROLLBACK TO SAVEPOINT folio_save; RELEASE SAVEPOINT folio_save") }
            else { abandonWriting() }
            // The deferred foreign keys refused the commit: say which relationship, and why.
            if case StoreError.server(_, "23503", _, _) = error, let clear = try? danglingReferenceError(batch) { throw clear }
            throw error
        }
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
    func insertMany(_ entity: EntityDescription, columns: [PropertyDescription], count: Int,
                    _ row: (Int, inout [StoreValue]) -> Void) throws {
        let width = 1 + columns.count
        let limit = min(1000, 60_000 / width)
        let names = (["id"] + columns.map { quote($0.name) }).joined(separator: ", ")
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
            try connection.query("INSERT INTO \(quote(entity.name)) (\(names)) VALUES \(tuples.joined(separator: ", "))", values)
            index = end
        }
    }

    /// Writes a history row (none for an empty change), announces its
    /// position and author with NOTIFY at commit, and ends the save with
    /// `finish` (COMMIT, or a savepoint's RELEASE), all in one round trip:
    /// a prepared statement and `finish` in one pipeline.
    func writeHistory(_ history: String, author: String, then finish: String) throws {
        guard !history.isEmpty else { return try connection.execute(finish) }
        // The payload is "position author": small, far below the server's 8,000-byte cap.
        try connection.query("""
            WITH h AS (INSERT INTO folio_history (author, changes) VALUES ($1, $2) RETURNING position)
            SELECT pg_notify($3, position::text || ' ' || $1) FROM h
            """, [.text(author), .text(history), .text(PostgresServer.channel(namespace))], then: [finish])
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
            guard n < Int64.max else { throw StoreError.constraintViolation(entity: name, key: "id", value: "\(n), the largest possible") }
            result.append(ObjectID(entityName: name, rowID: n))
            next[name] = n + 1
        }
        for (name, n) in next {
            try connection.query("INSERT INTO folio_sequence (entity, next) VALUES ($1, $2) ON CONFLICT (entity) DO UPDATE SET next = EXCLUDED.next",
                                 [.text(name), .integer(n)])
        }
        return result
    }

    func firstFreeID(_ entity: String) throws -> Int64 {
        var n: Int64 = 1
        if case .integer(let stored)? = try connection.scalar("SELECT next FROM folio_sequence WHERE entity = $1", [.text(entity)]) {
            n = stored
        }
        if case .integer(let largest)? = try connection.scalar("SELECT max(id) FROM \(quote(entity))") {
            n = max(n, largest == Int64.max ? largest : largest + 1)
        }
        return n
    }
}
