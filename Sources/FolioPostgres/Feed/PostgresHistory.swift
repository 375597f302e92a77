import FolioStore
import Foundation

/// The history SQL on a feed's connection: rows after a position, readers'
/// positions, trimming. Positions come from a sequence drawn under the
/// history lock (kept to the commit), so they become visible in order, as a prefix.
/// `history_trimmed_through` in `folio_metadata` is the newest position
/// ever trimmed: a reader behind it has lost rows and must reload.
enum PostgresHistory {
    /// The newest position: the largest row's, or the trim mark when every row was trimmed.
    static func latestPosition(_ c: PGConnection) throws -> Int64 {
        let value = try c.scalar(
            """
            SELECT GREATEST((SELECT max(position) FROM folio_history),
                            (SELECT value::bigint FROM folio_metadata WHERE key = 'history_trimmed_through'), 0)
            """)
        if case .integer(let p)? = value { return p }
        return 0
    }

    /// The rows after `position` (changes of `author`'s own saves left
    /// empty), with the trim mark and the newest position: one statement,
    /// so one snapshot and one round trip (the feed reads after every wake).
    /// The marks ride on every row, and on the one row a read with no
    /// history after the position still returns. It starts with SELECT, so
    /// a connection found lost runs it again on a new session.
    static func read(_ c: PGConnection, after position: Int64, excludingAuthor author: String) throws -> HistoryRead {
        let result = try c.query(
            """
            SELECT marks.trimmed, GREATEST(marks.newest, marks.trimmed, 0), h.position, (h.author = $1)::int,
                   CASE WHEN h.author = $1 THEN '' ELSE h.changes END
            FROM (SELECT COALESCE((SELECT value::bigint FROM folio_metadata WHERE key = 'history_trimmed_through'), 0) AS trimmed,
                         (SELECT max(position) FROM folio_history) AS newest) marks
            LEFT JOIN folio_history h ON h.position > $2
            ORDER BY h.position
            """, [.text(author), .integer(position)])
        guard result.rowCount > 0 else { return HistoryRead(rows: [], trimmed: false, latest: position) }
        var read = HistoryRead(rows: [], trimmed: result.int64(row: 0, column: 0) > position, latest: result.int64(row: 0, column: 1))
        for row in 0..<result.rowCount where !result.isNull(row: row, column: 2) {
            guard case .text(let text) = result.value(row: row, column: 4) else { continue }
            let own = result.int64(row: row, column: 3) == 1
            read.rows.append((result.int64(row: row, column: 2), own ? ChangeSet() : ChangeSet(historyText: text, origin: .otherProcess)))
        }
        return read
    }

    /// Adds `reader` at the newest position under the write lock, taken
    /// exclusively (so no save lands between reading the position and recording it).
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
        try c.query(
            """
            INSERT INTO folio_readers (reader, position, seen) VALUES ($1, $2, $3)
            ON CONFLICT (reader) DO UPDATE SET position = EXCLUDED.position, seen = EXCLUDED.seen
            """, [.text(reader), .integer(position), .real(seen)])
    }

    /// Records `reader` at `position`, drops readers silent for
    /// `silenceLimit` seconds and trims what every remaining reader has
    /// read. Gives up soon (busy) rather than wait behind another acknowledgement.
    static func acknowledge(_ c: PGConnection, reader: String, position: Int64, silenceLimit: Double) throws {
        try acknowledge(c, readers: [(reader, position)], silenceLimit: silenceLimit)
    }

    /// As above, for several readers in one transaction (a process's feeds together).
    static func acknowledge(_ c: PGConnection, readers: [(String, Int64)], silenceLimit: Double) throws {
        let now = Date().timeIntervalSince1970
        try c.execute("BEGIN")
        do {
            try c.execute("SET LOCAL lock_timeout = 200")
            for (reader, position) in readers { try upsertReader(c, reader, position, now) }
            try c.query("DELETE FROM folio_readers WHERE seen < $1", [.real(now - silenceLimit)])
            if case .integer(let passed)? = try c.scalar(
                """
                SELECT max(position) FROM folio_history WHERE position <= (SELECT min(position) FROM folio_readers)
                """)
            {
                try c.query("DELETE FROM folio_history WHERE position <= $1", [.integer(passed)])
                try c.query(
                    """
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
