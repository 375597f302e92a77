extension SQLiteBackend {
    /// A write transaction: on a connection of its own for a file, so that
    /// other contexts of the process keep reading meanwhile; on this
    /// connection in memory, where the caller keeps the coordinator's lock.
    func beginWriteTransaction() throws -> StoreBackend {
        if !isInMemory { return try SQLiteBackend(writeTransactionOn: self) }
        precondition(!inWriteTransaction, "a write transaction is already open on the in-memory store")
        try connection.execute("BEGIN IMMEDIATE")
        inWriteTransaction = true
        return self
    }

    /// Commits or rolls back the write transaction this backend holds.
    func endWriteTransaction(commit: Bool) throws {
        precondition(inWriteTransaction, "no write transaction is open")
        if commit {
            do { try connection.execute("COMMIT") } catch {
                try? connection.execute("ROLLBACK")
                inWriteTransaction = false
                throw error
            }
            journal?.didCommit()
        } else {
            try? connection.execute("ROLLBACK")
        }
        inWriteTransaction = false
    }
}
