import CSQLite

// Batch requests on SQLite: the shared logic (``BatchRunner``) inside one
// write transaction, with the page cache sized for a big batch and the
// history row written before the commit.
extension SQLiteBackend: BatchSQL {
    func execute(_ batch: BatchWrite, author: String) throws -> BatchOutcome {
        precondition(!inWriteTransaction, "a batch request inside performWrite")
        if !connection.isInTransaction { try connection.execute("BEGIN IMMEDIATE") }
        do {
            if batch.isLarge { try connection.execute("PRAGMA cache_size = \(Self.bigSaveCacheSize(1_000_000))") }
            defer { if batch.isLarge { try? connection.execute("PRAGMA cache_size = \(Self.defaultCacheSize)") } }
            // A replica records what the batch wrote in its transaction, as it records a save.
            let before = journal == nil ? [:] : try valuesBefore(batch)
            let outcome = try BatchRunner(self).run(batch)
            let outbox = try journal?.record(batch, outcome, before: before, on: connection)
            if !outcome.history.isEmpty || outbox != nil { try writeHistory(author: author, changes: outcome.history, outbox: outbox) }
            try connection.execute("COMMIT")
            if !outcome.history.isEmpty { journal?.didCommit() }
            return outcome
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }

    /// The values a batch update's rows hold before it writes them, by row ID, in the order of its keys.
    private func valuesBefore(_ batch: BatchWrite) throws -> [Int64: [StoreValue]] {
        guard case .update(let plan, let sets) = batch else { return [:] }
        let ids = try BatchRunner(self).matching(plan)
        guard !ids.isEmpty else { return [:] }
        let s = try connection.prepare(
            "SELECT id, \(sets.map { quote($0.0.name) }.joined(separator: ", ")) FROM \(quote(plan.entity.name)) WHERE "
                + dialect.isOneOf("id", ids: "?"))
        try s.bind([dialect.idList(ids)])
        var values: [Int64: [StoreValue]] = [:]
        while try s.step() {
            if case .integer(let id) = s.value(at: 0) { values[id] = (1...sets.count).map { s.value(at: $0) } }
        }
        return values
    }

    func batchIDs(_ sql: String, _ values: [StoreValue]) throws -> [Int64] {
        let s = try connection.prepare(sql)
        try s.bind(values)
        var ids: [Int64] = []
        while try s.step() { if case .integer(let id) = s.value(at: 0) { ids.append(id) } }
        return ids
    }

    func batchRun(_ sql: String, _ values: [StoreValue]) throws {
        do { try connection.run(sql, values) } catch StoreError.sqlite(let code, let message, _) where code & 0xff == SQLITE_CONSTRAINT {
            // Unique-together groups are left to the index: name the columns SQLite names.
            // "UNIQUE constraint failed: Zoo.name, Zoo.location" → Zoo, "name, location".
            let columns = (message.components(separatedBy: ": ").last ?? message).components(separatedBy: ", ")
            throw StoreError.constraintViolation(
                entity: columns.first?.components(separatedBy: ".").first ?? "?",
                key: columns.map { $0.components(separatedBy: ".").last ?? $0 }.joined(separator: ", "),
                value: "the value set")
        }
    }

    func batchReserveIDs(_ entity: String, count: Int) throws -> Int64 {
        let first = try firstFreeID(entity)
        guard first <= (journal?.rowIDs.upperBound ?? Int64.max) - Int64(count) else {
            throw StoreError.constraintViolation(entity: entity, key: "id", value: "\(first) + \(count), past the largest possible")
        }
        try connection.run(
            "INSERT OR REPLACE INTO folio_sequence (entity, next) VALUES (?, ?)", [.text(entity), .integer(first + Int64(count))])
        return first
    }

    func batchInsert(_ rows: BatchRows, firstID: Int64) throws {
        let e = rows.entity
        let names = ["id"] + rows.columns.map { quote($0.name) }
        let marks = Array(repeating: "?", count: names.count).joined(separator: ", ")
        let s = try connection.prepare("INSERT INTO \(quote(e.name)) (\(names.joined(separator: ", "))) VALUES (\(marks))")
        let width = rows.width
        try rows.values.withUnsafeBufferPointer { values in
            for index in 0..<rows.count {
                if index > 0 { sqlite3_reset(s.raw) }
                try s.bind(.integer(firstID + Int64(index)), at: 1)
                let start = index * width
                for i in 0..<width { try s.bind(values[start + i], at: Int32(i + 2)) }
                try step(s, entity: e, values: Array(values[start..<start + width]))
            }
        }
    }
}
