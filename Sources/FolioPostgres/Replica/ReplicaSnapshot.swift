import FolioStore
import Foundation

/// A replica's number and history reader on the server, and its full
/// re-read when the server trimmed history it had not pulled: every row
/// copied from one consistent snapshot of the server (a REPEATABLE READ
/// transaction), at the history position of that snapshot, written to the
/// replica file in one SQLite transaction. (A first sync copies in chunks
/// instead, see ``ReplicaFirstSync``.)
enum ReplicaSnapshot {
    /// Gives the replica of `author` a number and a history reader on the
    /// server, under the write lock (the sequence's numbers are never handed
    /// out twice), or finds those an earlier attempt of the same first sync
    /// was given. The reader is put at `position` when the history after it
    /// is all still there (`resumes`), else at the newest position.
    static func register(_ server: PostgresBackend, author: String, resumingAt position: Int64?) throws
        -> (number: Int64, resumes: Bool)
    {
        let c = server.connection
        try server.beginWriting(until: server.deadlineFromNow)
        do {
            try ReplicaServerTables.create(c)
            let number: Int64
            if case .integer(let found)? = try c.scalar("SELECT number FROM folio_replicas WHERE author = $1", [.text(author)]) {
                number = found
            } else {
                // First syncs abandoned long ago (their reader dropped as silent) let go of their numbers: nothing carries them.
                try c.execute(
                    """
                    DELETE FROM folio_replicas r
                    WHERE NOT r.ready AND NOT EXISTS (SELECT 1 FROM folio_readers WHERE reader = r.author)
                    """)
                guard case .integer(let drawn)? = try c.scalar("SELECT nextval('folio_replica_number')"),
                    drawn <= ReplicaIDs.largestNumber
                else {
                    throw StoreError.server(
                        store: server.path, code: "folio", message: "the server has handed out every replica number", sql: "")
                }
                number = drawn
                try c.query("INSERT INTO folio_replicas (number, author, ready) VALUES ($1, $2, false)", [.integer(number), .text(author)])
            }
            var resumes = false
            if let position, try trimmedThrough(c) <= position { resumes = true }
            let at = resumes ? position ?? 0 : try PostgresHistory.latestPosition(c)
            try c.query(
                """
                INSERT INTO folio_readers (reader, position, seen, silence) VALUES ($1, $2, $3, $4)
                ON CONFLICT (reader) DO UPDATE SET position = EXCLUDED.position, seen = EXCLUDED.seen, silence = EXCLUDED.silence
                """, [.text(author), .integer(at), .real(Date().timeIntervalSince1970), .real(ReplicaEngine.silenceLimit)])
            try c.execute("COMMIT")
            return (number, resumes)
        } catch {
            server.abandonWriting()
            throw error
        }
    }

    /// The newest history position the server has trimmed (a reader behind it lost rows).
    static func trimmedThrough(_ c: PGConnection) throws -> Int64 {
        if case .integer(let p)? = try c.scalar(
            "SELECT COALESCE((SELECT value::bigint FROM folio_metadata WHERE key = 'history_trimmed_through'), 0)")
        {
            return p
        }
        return 0
    }

    /// Records that the replica's first sync is done (its number is then kept for good);
    /// the row comes back if an abandoned-number sweep took it meanwhile.
    static func markReady(_ c: PGConnection, number: Int64, author: String) throws {
        try c.query(
            """
            INSERT INTO folio_replicas (number, author, ready) VALUES ($1, $2, true)
            ON CONFLICT (number) DO UPDATE SET ready = true
            """, [.integer(number), .text(author)])
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

/// The tables the server keeps for its replicas (made by the first replica's first sync); `ready`
/// is false while a replica's first sync is under way.
enum ReplicaServerTables {
    static func create(_ c: PGConnection) throws {
        try c.execute(
            """
            CREATE SEQUENCE IF NOT EXISTS folio_replica_number;
            CREATE TABLE IF NOT EXISTS folio_replicas (
              number BIGINT PRIMARY KEY, author TEXT NOT NULL, pushed_through BIGINT NOT NULL DEFAULT 0);
            ALTER TABLE folio_replicas ADD COLUMN IF NOT EXISTS ready BOOLEAN NOT NULL DEFAULT true
            """)
    }
}
