import FolioStore
import Foundation

/// The history SQL on a feed's connection: rows after a position, readers'
/// positions, trimming. Positions come from a sequence drawn under the
/// write lock, so they become visible in order, as a prefix.
/// `history_trimmed_through` in `folio_metadata` is the newest position
/// ever trimmed: a reader behind it has lost rows and must reload.
enum PostgresHistory {
    /// The newest position: the largest row's, or the trim mark when every row was trimmed.
    static func latestPosition(_ c: PGConnection) throws -> Int64 {
        let value = try c.scalar("""
            SELECT GREATEST((SELECT max(position) FROM folio_history),
                            (SELECT value::bigint FROM folio_metadata WHERE key = 'history_trimmed_through'), 0)
            """)
        if case .integer(let p)? = value { return p }
        return 0
    }

    /// The rows after `position` (changes of `author`'s own saves left
    /// empty), with the trim mark and the newest position, from one snapshot.
    static func read(_ c: PGConnection, after position: Int64, excludingAuthor author: String) throws -> HistoryRead {
        try c.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        do {
            let rows = try c.query("""
                SELECT position, author = $1, CASE WHEN author = $1 THEN '' ELSE changes END
                FROM folio_history WHERE position > $2 ORDER BY position
                """, [.text(author), .integer(position)])
            let trimmed = try trimmedThrough(c) > position
            var read = HistoryRead(rows: [], trimmed: trimmed, latest: try latestPosition(c))
            for row in 0..<rows.rowCount {
                let own = rows.int64(row: row, column: 1) == 1 || rows.value(row: row, column: 1) == .integer(1)
                guard case .text(let text) = rows.value(row: row, column: 2) else { continue }
                read.rows.append((rows.int64(row: row, column: 0), own ? ChangeSet() : ChangeSet(historyText: text, origin: .otherProcess)))
            }
            try c.execute("COMMIT")
            return read
        } catch {
            if c.isInTransaction { try? c.execute("ROLLBACK") }
            throw error
        }
    }

    /// Adds `reader` at the newest position under the write lock (so no
    /// save lands between reading the position and recording it).
    static func register(_ c: PGConnection, reader: String, lockKey: Int64, waitMilliseconds: Int32) throws -> Int64 {
        try c.execute("BEGIN")
        do {
            try c.execute("SET LOCAL lock_timeout = \(max(1, waitMilliseconds)); SELECT pg_advisory_xact_lock(\(lockKey))")
            let position = try latestPosition(c)
            try upsertReader(c, reader, position, Date().timeIntervalSince1970)
            try c.execute("COMMIT")
            return position
        } catch {
            if c.isInTransaction { try? c.execute("ROLLBACK") }
            throw error
        }
    }

    private static func upsertReader(_ c: PGConnection, _ reader: String, _ position: Int64, _ seen: Double) throws {
        try c.query("""
            INSERT INTO folio_readers (reader, position, seen) VALUES ($1, $2, $3)
            ON CONFLICT (reader) DO UPDATE SET position = EXCLUDED.position, seen = EXCLUDED.seen
            """, [.text(reader), .integer(position), .real(seen)])
    }

    private static func trimmedThrough(_ c: PGConnection) throws -> Int64 {
        guard case .text(let text)? = try c.scalar("SELECT value FROM folio_metadata WHERE key = 'history_trimmed_through'") else { return 0 }
        return Int64(text) ?? 0
    }

    /// Records `reader` at `position`, drops readers silent for
    /// `silenceLimit` seconds and trims what every remaining reader has
    /// read. Gives up soon (busy) rather than wait behind another acknowledgement.
    static func acknowledge(_ c: PGConnection, reader: String, position: Int64, silenceLimit: Double) throws {
        let now = Date().timeIntervalSince1970
        try c.execute("BEGIN")
        do {
            try c.execute("SET LOCAL lock_timeout = 200")
            try upsertReader(c, reader, position, now)
            try c.query("DELETE FROM folio_readers WHERE seen < $1", [.real(now - silenceLimit)])
            if case .integer(let passed)? = try c.scalar("""
                SELECT max(position) FROM folio_history WHERE position <= (SELECT min(position) FROM folio_readers)
                """) {
                try c.query("DELETE FROM folio_history WHERE position <= $1", [.integer(passed)])
                try c.query("""
                    INSERT INTO folio_metadata (key, value) VALUES ('history_trimmed_through', $1)
                    ON CONFLICT (key) DO UPDATE SET value = GREATEST(folio_metadata.value::bigint, EXCLUDED.value::bigint)::text
                    """, [.text(String(passed))])
            }
            try c.execute("COMMIT")
        } catch {
            if c.isInTransaction { try? c.execute("ROLLBACK") }
            throw error
        }
    }
}
