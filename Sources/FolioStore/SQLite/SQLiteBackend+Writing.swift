import Foundation

// Write transactions that wait for the lock before the save is built (so a
// caller can wait off the main actor), and the extra connections a
// container opens beside its first.
extension SQLiteBackend {
    func beginWriting(until deadline: UInt64) throws {
        try connection.withDeadline(deadline) { try connection.execute("BEGIN IMMEDIATE") }
    }

    var isWriting: Bool { connection.isInTransaction }

    func abandonWriting() {
        if connection.isInTransaction { try? connection.execute("ROLLBACK") }
    }

    var deadlineFromNow: UInt64 { connection.deadlineFromNow }

    /// Opens the file again with the same busy timeout (the schema is already prepared).
    func reopenConnection() throws -> SQLiteBackend {
        try SQLiteBackend(
            path: path, health: connection.health, busyTimeoutMilliseconds: Int32(connection.busyWait.timeoutNanoseconds / 1_000_000))
    }

    func makeChangeFeed(reader: String) throws -> StoreChangeFeed? {
        if isInMemory { return nil }
        return SQLiteChangeFeed(backend: try reopenConnection(), reader: reader)
    }
}

extension SQLiteBackend {
    var dialect: SQLDialect { SQLiteDialect() }

    /// A new SQLite store is placed whole with its seed, so any store there was seeded.
    func hasBeenSeeded() throws -> Bool { true }

    func recordSeeded() throws {}
}

extension SQLiteBackend {
    /// Whether the file is a replica of a server's store (its first sync recorded the server).
    func isReplica() throws -> Bool {
        try !connection.rows("SELECT 1 FROM folio_metadata WHERE key = 'replica_of'").isEmpty
    }
}
