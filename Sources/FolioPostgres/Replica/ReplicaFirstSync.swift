import FolioLocking
import FolioStore
import Foundation

/// A new replica's first copy of the server's store, resumable. The rows
/// are read table by table in key order from one REPEATABLE READ snapshot
/// and written in chunks, each committed with the progress (`replica_copy_*`
/// in `folio_metadata`), so a kill or a lost server keeps what was written.
/// The next open goes on from the progress with the same author, number and
/// history reader, from a newer snapshot, then pulls the server's history
/// from the first snapshot's position: every row that changed since is
/// read again, so the replica ends at one position. When the server
/// trimmed that history meanwhile, the copy starts over.
///
/// The file says it is a replica (`replica_of`) from the first chunk on, so
/// a plain writable open is refused; it is a whole replica once
/// `replica_number` is written, last.
struct ReplicaFirstSync {
    let postgres: PostgresServer
    let displayName: String
    let path: String
    let file: ReplicaFile
    let schema: Schema
    let busyTimeoutMilliseconds: Int32

    /// Rows written in one SQLite transaction.
    static let chunkRows = 10_000

    /// The keys of the progress in `folio_metadata`. `rows` (every row a chunk
    /// wrote, over all attempts) and `attempts` stay once the copy is done.
    enum Key {
        static let author = "replica_copy_author"
        static let position = "replica_copy_position"
        static let through = "replica_copy_through"
        static let table = "replica_copy_table"
        static let after = "replica_copy_after"
        static let rows = "replica_copy_rows"
        static let attempts = "replica_copy_attempts"
    }

    /// A table the copy reads: an entity's, or a many-to-many one's.
    enum Table: Sendable {
        case entity(EntityDescription)
        case join(String)
    }

    private var tables: [Table] { schema.entities.map(Table.entity) + ReplicaRows.joinTables(schema).map { .join($0.table) } }

    func run() throws -> ReplicaIdentity {
        if let of = try file.metadata("replica_of"), of != displayName {
            throw StoreError.cannotOpen(path: path, message: "it is a replica of \(of), not of \(displayName)")
        }
        let server = try PostgresBackend(
            server: postgres, namespace: schema.name, readOnly: false, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        defer { server.connection.close() }
        try server.prepare(schema)
        // Chosen here and kept first: an attempt cut off finds its number and reader on the server by it.
        let author = try file.metadata(Key.author) ?? "replica-" + UUID().uuidString.lowercased()
        try file.write {
            try file.setMetadata("replica_of", displayName)
            try file.setMetadata(Key.author, author)
            try file.setMetadata(Key.attempts, String(try count(Key.attempts) + 1))
        }
        let started = try file.metadata(Key.position).flatMap { Int64($0) }
        let registered = try ReplicaSnapshot.register(server, author: author, resumingAt: started)
        var number = registered.number
        if started != nil && !registered.resumes { try startOver() }
        var copied = try copy(server.connection)
        if copied.through > copied.first {
            // Chunks came from newer snapshots: the history since the first one brings every row to one position.
            if try ReplicaSnapshot.trimmedThrough(server.connection) > copied.first {
                try startOver()
                number = try ReplicaSnapshot.register(server, author: author, resumingAt: nil).number
                copied = try copy(server.connection)
            } else {
                let identity = ReplicaIdentity(server: displayName, number: number, author: author, schemaVersion: schema.version)
                _ = try ReplicaPull(server: server, file: file, schema: schema, identity: identity, localAuthor: "sync-" + author).pull()
            }
        }
        try ReplicaSnapshot.markReady(server.connection, number: number, author: author)
        try file.write {
            for key in [Key.author, Key.position, Key.through, Key.table, Key.after] {
                try file.connection.run("DELETE FROM folio_metadata WHERE key = ?", [.text(key)])
            }
            try file.setMetadata("replica_author", author)
            try file.setMetadata("replica_schema_version", String(schema.version))
            // Last: the file is a whole replica once this is there.
            try file.setMetadata("replica_number", String(number))
        }
        return ReplicaIdentity(server: displayName, number: number, author: author, schemaVersion: schema.version)
    }

    private func count(_ key: String) throws -> Int64 { try file.metadata(key).flatMap { Int64($0) } ?? 0 }

    /// Copies from where the progress stands to the end, from one snapshot:
    /// the first snapshot's position and the newest a chunk was read from.
    private func copy(_ c: PGConnection) throws -> (first: Int64, through: Int64) {
        // Chunks of one table refer to rows of tables not copied yet; the whole copy is consistent.
        // No checkpoint between chunks (each would copy and sync the log): one after the copy, as before chunks.
        try file.connection.execute("PRAGMA foreign_keys=OFF; PRAGMA wal_autocheckpoint=0")
        defer { try? file.connection.execute("PRAGMA foreign_keys=ON; PRAGMA wal_autocheckpoint=1000") }
        try c.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        do {
            let snapshot = try PostgresHistory.latestPosition(c)
            let first = try file.metadata(Key.position).flatMap { Int64($0) } ?? snapshot
            let through = max(try file.metadata(Key.through).flatMap { Int64($0) } ?? first, snapshot)
            var table = Int(try count(Key.table))
            var after = (try file.metadata(Key.after) ?? "").split(separator: ",").compactMap { Int64($0) }
            let tables = self.tables
            let reader = ChunkReader(connection: c)
            var chunk = table < tables.count ? try reader.read(tables[table], after: after) : nil
            while let rows = chunk {
                // A short chunk ends its table.
                let (nextTable, nextAfter) = next(table, rows.last ?? after, rows.count)
                // The next chunk is read while this one is written: the server and this file work side by side.
                let ahead = nextTable < tables.count ? reader.start(tables[nextTable], after: nextAfter) : nil
                do {
                    try file.write {
                        switch (tables[table], rows) {
                        case (.entity(let entity), .rows(let rows)): try file.insertNew(entity, rows)
                        case (.join(let name), .joins(let rows)): try file.insertJoin(name, rows)
                        default: preconditionFailure("a chunk is read from its own table")
                        }
                        try record(first, through, (nextTable, nextAfter), rows.count)
                    }
                } catch {
                    _ = try? ahead?.value()  // the connection is the reader's until its read ends
                    throw error
                }
                (table, after) = (nextTable, nextAfter)
                chunk = try ahead?.value()
            }
            try c.execute("COMMIT")
            return (first, through)
        } catch {
            if c.isInTransaction { try? c.execute("ROLLBACK") }
            throw error
        }
    }

    /// A chunk of one table's rows, as read from the server.
    enum Chunk: Sendable {
        case rows([ServerRow])
        case joins([JoinRow])

        var count: Int {
            switch self {
            case .rows(let rows): rows.count
            case .joins(let rows): rows.count
            }
        }

        /// The key of its last row (the next chunk of its table starts after it).
        var last: [Int64]? {
            switch self {
            case .rows(let rows): rows.last.map { [$0.id] }
            case .joins(let rows): rows.last.map { [$0.a, $0.b] }
            }
        }
    }

    /// Reads chunks on the server connection, on a thread of its own when asked to read ahead.
    // @unchecked: the connection is used by one thread at a time: the reading thread from `start`
    // until its `value()` returns, the caller otherwise.
    final class ChunkReader: @unchecked Sendable {
        private let connection: PGConnection

        init(connection: PGConnection) { self.connection = connection }

        func read(_ table: Table, after: [Int64]) throws -> Chunk {
            switch table {
            case .entity(let entity):
                .rows(try ReplicaRows.read(connection, entity, after: after.first ?? 0, limit: ReplicaFirstSync.chunkRows))
            case .join(let name):
                .joins(
                    try ReplicaRows.readJoin(
                        connection, name, after: (after.first ?? 0, after.last ?? 0), limit: ReplicaFirstSync.chunkRows))
            }
        }

        /// Reads a chunk on a thread of its own; its ``Ahead/value()`` waits for it.
        func start(_ table: Table, after: [Int64]) -> Ahead {
            let ahead = Ahead()
            Thread.detachNewThread { ahead.finish(Result { try self.read(table, after: after) }) }
            return ahead
        }
    }

    /// A chunk being read on another thread.
    final class Ahead: Sendable {
        private let result = LockedValue<Result<Chunk, any Error>?>(nil)
        private let done = DispatchSemaphore(value: 0)

        fileprivate func finish(_ outcome: Result<Chunk, any Error>) {
            result.withLock { $0 = outcome }
            done.signal()
        }

        /// Waits for the read to end (once); the chunk, or what the read threw.
        func value() throws -> Chunk {
            done.wait()
            return try result.withLock { $0 }!.get()
        }
    }

    /// Where the copy goes on after a chunk of `written` rows that ended at `after`.
    private func next(_ table: Int, _ after: [Int64], _ written: Int) -> (table: Int, after: [Int64]) {
        written < Self.chunkRows ? (table + 1, []) : (table, after)
    }

    /// The progress, in a chunk's transaction.
    private func record(_ first: Int64, _ through: Int64, _ at: (table: Int, after: [Int64]), _ written: Int) throws {
        let (table, after) = at
        if try file.metadata(Key.position) == nil {
            try file.setMetadata(Key.position, String(first))
            try file.setMetadata("replica_pulled", String(first))
        }
        try file.setMetadata(Key.through, String(through))
        try file.setMetadata(Key.table, String(table))
        try file.setMetadata(Key.after, after.map(String.init).joined(separator: ","))
        try file.setMetadata(Key.rows, String(try count(Key.rows) + Int64(written)))
    }

    /// Forgets what an attempt copied whose history the server no longer has.
    private func startOver() throws {
        try file.write {
            for join in ReplicaRows.joinTables(schema) { try file.connection.run("DELETE FROM \(quote(join.table))") }
            for entity in schema.entities { try file.connection.run("DELETE FROM \(quote(entity.name))") }
            try file.connection.run("DELETE FROM folio_replica_rows")
            for key in [Key.position, Key.through, Key.table, Key.after, "replica_pulled"] {
                try file.connection.run("DELETE FROM folio_metadata WHERE key = ?", [.text(key)])
            }
        }
    }
}
