import FolioStore

// Batch requests on PostgreSQL: the shared logic (``BatchRunner``) inside one
// transaction holding the write lock exclusively (what it reads and checks
// holds until it commits), with the history row and its NOTIFY.
extension PostgresBackend: BatchSQL {
    func execute(_ batch: BatchWrite, author: String) throws -> BatchOutcome {
        precondition(!inWriteTransaction, "a batch request inside performWrite")
        if !connection.isInTransaction {
            // A save's shared lock (deferred, not taken yet) gives way to the exclusive one.
            connection.dropDeferred()
            try deferBeginning(until: deadlineFromNow, exclusive: true)
        }
        do {
            let outcome = try BatchRunner(self).run(batch)
            try writeHistory(outcome.history, author: author, then: "COMMIT")
            return outcome
        } catch {
            abandonWriting()
            throw error
        }
    }

    func batchIDs(_ sql: String, _ values: [StoreValue]) throws -> [Int64] {
        let r = try connection.query(sql, values)
        return (0..<r.rowCount).map { r.int64(row: $0, column: 0) }
    }

    func batchRun(_ sql: String, _ values: [StoreValue]) throws {
        try connection.query(sql, values)
    }

    func batchReserveIDs(_ entity: String, count: Int) throws -> Int64 {
        try reserveConsecutiveIDs(entity, count: count)
    }

    func batchInsert(_ rows: BatchRows, firstID: Int64) throws {
        let width = rows.width
        try insertMany(rows.entity, columns: rows.columns, count: rows.count) { i, values in
            values.append(.integer(firstID + Int64(i)))
            values += rows.values[i * width..<(i + 1) * width]
        }
    }
}
