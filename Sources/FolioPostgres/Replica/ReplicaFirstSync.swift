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
    private enum Table {
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
            while table < tables.count {
                // A short chunk ends its table.
                let written: Int
                switch tables[table] {
                case .entity(let entity):
                    let rows = try ReplicaRows.read(c, entity, after: after.first ?? 0, limit: Self.chunkRows)
                    written = rows.count
                    after = rows.last.map { [$0.id] } ?? after
                    try file.write {
                        try file.insertNew(entity, rows)
                        try record(first, through, next(table, after, written), written)
                    }
                case .join(let name):
                    let rows = try ReplicaRows.readJoin(c, name, after: (after.first ?? 0, after.last ?? 0), limit: Self.chunkRows)
                    written = rows.count
                    after = rows.last.map { [$0.a, $0.b] } ?? after
                    try file.write {
                        try file.insertJoin(name, rows)
                        try record(first, through, next(table, after, written), written)
                    }
                }
                (table, after) = next(table, after, written)
            }
            try c.execute("COMMIT")
            return (first, through)
        } catch {
            if c.isInTransaction { try? c.execute("ROLLBACK") }
            throw error
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
