import Foundation

// Other processes' saves: the history rows each commit writes, and the
// readers' positions that decide when rows may be trimmed.
extension SQLiteBackend {
    func history(after position: Int64, excludingAuthor author: String) throws -> [(Int64, ChangeSet)] {
        let rows = try connection.rows("""
            SELECT position, author, CASE WHEN author = ? THEN '' ELSE changes END
            FROM folio_history WHERE position > ? ORDER BY position
            """, [.text(author), .integer(position)])
        var result: [(Int64, ChangeSet)] = []
        for row in rows {
            guard case .integer(let p) = row[0], case .text(let who) = row[1], case .text(let json) = row[2] else { continue }
            result.append((p, who == author ? ChangeSet() : ChangeSet(historyText: json, origin: .otherProcess)))
        }
        return result
    }

    func latestHistoryPosition() throws -> Int64 {
        if case .integer(let p)? = try connection.rows("SELECT max(position) FROM folio_history").first?.first { return p }
        if case .integer(let p)? = try connection.rows("SELECT seq FROM sqlite_sequence WHERE name = 'folio_history'").first?.first {
            return p
        }
        return 0
    }

    func registerReader(_ reader: String) throws -> Int64 {
        try connection.execute("BEGIN IMMEDIATE")
        do {
            let position = try latestHistoryPosition()
            try connection.run("INSERT OR REPLACE INTO folio_readers (reader, position, seen) VALUES (?, ?, ?)",
                               [.text(reader), .integer(position), .real(Date().timeIntervalSince1970)])
            try connection.execute("COMMIT")
            return position
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }

    func acknowledge(reader: String, position: Int64) throws {
        let now = Date().timeIntervalSince1970
        try connection.execute("BEGIN IMMEDIATE")
        do {
            try connection.run("INSERT OR REPLACE INTO folio_readers (reader, position, seen) VALUES (?, ?, ?)",
                               [.text(reader), .integer(position), .real(now)])
            // Readers silent for a minute are gone (crashed without saying goodbye).
            try connection.run("DELETE FROM folio_readers WHERE seen < ?", [.real(now - 60)])
            try connection.run("DELETE FROM folio_history WHERE position <= (SELECT min(position) FROM folio_readers)")
            try connection.execute("COMMIT")
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }

    func removeReader(_ reader: String) throws {
        try connection.run("DELETE FROM folio_readers WHERE reader = ?", [.text(reader)])
    }
}
