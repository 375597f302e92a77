import FolioStore
import Foundation

extension PostgresHistory {
    /// What one read of the history found, every author's rows with their changes.
    struct Rows {
        var rows: [(position: Int64, author: String, changes: ChangeSet)] = []
        var trimmed = false
        /// The horizon read through (or the trim mark when newer).
        var latest: Int64
        /// Rows past the horizon were committed already: read again soon.
        var pending = false
        /// The newest committed row's mark.
        var newest: Int64 = 0
    }

    /// Every row after `position` up to the horizon with its author, in
    /// mark order (then in the order they were written), the trim mark, the
    /// horizon and whether committed rows wait past it, in one statement
    /// (the feed hub's shared read; the marks once, not per row). A position past the server's
    /// transaction IDs (a store restored into another cluster) reads as trimmed.
    /// Rows of `skipping` come without their changes (empty): the reader has them.
    /// The namespace's horizon is read when a row marked at most `waited`
    /// waits past the server's (see ``readHorizonSQL(after:waited:)``).
    static func readAll(_ c: PGConnection, after position: Int64, skipping author: String? = nil, waited: Int64 = .max) throws -> Rows {
        let result = try c.query(
            """
            SELECT marks.trimmed, GREATEST(marks.horizon, marks.trimmed), h.position, h.author,
                   CASE WHEN h.author = $2::text THEN '' ELSE h.changes END,
                   (marks.trimmed > $1 OR $1 > marks.ceiling)::int, marks.pending::int, marks.unpassed::int, marks.newest
            FROM (SELECT m.*, m.newest > GREATEST(m.horizon, $1) AS pending, m.newest >= m.ceiling AS unpassed
                  FROM (SELECT \(trimmedSQL) AS trimmed, \(readHorizonSQL(after: "$1", waited: "$3")) AS horizon,
                               \(ceilingSQL) AS ceiling, \(newestSQL) AS newest OFFSET 0) m
                  OFFSET 0) marks
            LEFT JOIN folio_history h ON h.position > $1 AND h.position <= marks.horizon
            ORDER BY h.position, h.seq
            """, [.integer(position), author.map { .text($0) } ?? .null, .integer(waited)])
        guard result.rowCount > 0 else { return Rows(latest: position) }
        var read = Rows(
            trimmed: result.int64(row: 0, column: 5) == 1, latest: result.int64(row: 0, column: 1),
            pending: result.int64(row: 0, column: 6) == 1, newest: result.int64(row: 0, column: 8))
        read.rows.reserveCapacity(result.rowCount)
        for row in 0..<result.rowCount where !result.isNull(row: row, column: 2) {
            guard case .text(let author) = result.value(row: row, column: 3), case .text(let text) = result.value(row: row, column: 4)
            else { continue }
            read.rows.append((result.int64(row: row, column: 2), author, ChangeSet(historyText: text, origin: .otherProcess)))
        }
        if read.trimmed { read.rows = [] }
        // A row marked the snapshot's xmax waits for a later transaction to end: end one.
        if result.int64(row: 0, column: 7) == 1 { nudge(c) }
        return read
    }
}
