import FolioStore
import Foundation

extension PostgresHistory {
    /// Every row after `position` with its author, the trim mark and the
    /// newest position, in one statement (the feed hub's shared read).
    static func readAll(_ c: PGConnection, after position: Int64) throws
        -> (rows: [(position: Int64, author: String, changes: ChangeSet)], trimmed: Bool, latest: Int64)
    {
        let result = try c.query(
            """
            SELECT marks.trimmed, GREATEST(marks.newest, marks.trimmed, 0), h.position, h.author, h.changes
            FROM (SELECT COALESCE((SELECT value::bigint FROM folio_metadata WHERE key = 'history_trimmed_through'), 0) AS trimmed,
                         (SELECT max(position) FROM folio_history) AS newest) marks
            LEFT JOIN folio_history h ON h.position > $1
            ORDER BY h.position
            """, [.integer(position)])
        guard result.rowCount > 0 else { return ([], false, position) }
        var rows: [(position: Int64, author: String, changes: ChangeSet)] = []
        rows.reserveCapacity(result.rowCount)
        for row in 0..<result.rowCount where !result.isNull(row: row, column: 2) {
            guard case .text(let author) = result.value(row: row, column: 3), case .text(let text) = result.value(row: row, column: 4)
            else { continue }
            rows.append((result.int64(row: row, column: 2), author, ChangeSet(historyText: text, origin: .otherProcess)))
        }
        return (rows, result.int64(row: 0, column: 0) > position, result.int64(row: 0, column: 1))
    }
}
