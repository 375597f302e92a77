import FolioStore
import Foundation

/// A replica's first sync, and its full re-read when the server trimmed
/// history it had not pulled: every row copied from one consistent snapshot
/// of the server (a REPEATABLE READ transaction), at the history position of
/// that snapshot, written to the replica file in one SQLite transaction (a
/// kill leaves the file as it was, and the next open starts again).
enum ReplicaSnapshot {
    /// Gives this replica a number and an author on the server, under the
    /// write lock: the sequence's numbers are never handed out twice.
    static func register(_ server: PostgresBackend) throws -> (number: Int64, author: String) {
        let c = server.connection
        try server.beginWriting(until: server.deadlineFromNow)
        do {
            try ReplicaServerTables.create(c)
            guard case .integer(let number)? = try c.scalar("SELECT nextval('folio_replica_number')"),
                number <= ReplicaIDs.largestNumber
            else {
                throw StoreError.server(
                    store: server.path, code: "folio", message: "the server has handed out every replica number", sql: "")
            }
            let author = "replica-\(number)-\(UUID().uuidString.prefix(8).lowercased())"
            try c.query("INSERT INTO folio_replicas (number, author) VALUES ($1, $2)", [.integer(number), .text(author)])
            try c.execute("COMMIT")
            return (number, author)
        } catch {
            server.abandonWriting()
            throw error
        }
    }

    /// Copies every row of the server into `file` (inside the caller's write
    /// transaction), replacing what is there but for the rows of waiting
    /// local saves (a re-read keeps them on top), and returns the history
    /// position the copy is at.
    @discardableResult
    static func copy(from c: PGConnection, schema: Schema, into file: ReplicaFile, keep pending: PendingRows = PendingRows()) throws
        -> Int64
    {
        try c.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        do {
            let position = try PostgresHistory.latestPosition(c)
            for entity in schema.entities {
                let rows = try ReplicaRows.read(c, entity)
                let onServer = Set(rows.map(\.id))
                // Rows here the server no longer has, but for new ones not pushed yet.
                let here = try file.connection.rows("SELECT id FROM \(quote(entity.name))").compactMap { row -> Int64? in
                    if case .integer(let id) = row[0] { id } else { nil }
                }
                if here.isEmpty {
                    // A first sync (or a table emptied here): nothing to compare with or keep.
                    try file.insertNew(entity, rows.filter { !pending.isDeleted(RowKey(entity.name, $0.id)) })
                    continue
                }
                try file.delete(entity, ids: here.filter { !onServer.contains($0) && !pending.isInserted(RowKey(entity.name, $0)) })
                let kept = rows.filter { !pending.isDeleted(RowKey(entity.name, $0.id)) }
                try file.upsert(entity, kept, keep: pending.keys(of: entity.name))
            }
            for join in ReplicaRows.joinTables(schema) {
                let rows = try ReplicaRows.readJoin(c, join.table)
                try file.connection.run("DELETE FROM \(quote(join.table))")
                try file.insertJoin(
                    join.table,
                    rows.filter {
                        !pending.isDeleted(RowKey(join.a, $0.a)) && !pending.isDeleted(RowKey(join.b, $0.b))
                    })
            }
            try c.execute("COMMIT")
            return position
        } catch {
            if c.isInTransaction { try? c.execute("ROLLBACK") }
            throw error
        }
    }
}

/// The tables the server keeps for its replicas (made by the first replica's first sync).
enum ReplicaServerTables {
    static func create(_ c: PGConnection) throws {
        try c.execute(
            """
            CREATE SEQUENCE IF NOT EXISTS folio_replica_number;
            CREATE TABLE IF NOT EXISTS folio_replicas (
              number BIGINT PRIMARY KEY, author TEXT NOT NULL, pushed_through BIGINT NOT NULL DEFAULT 0)
            """)
    }
}
