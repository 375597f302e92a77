import Dispatch
import Foundation

// Other processes' saves: the history rows each commit writes, and the
// readers' positions that decide when rows may be trimmed. Positions come
// from AUTOINCREMENT inside the writing transaction, so a reader sees them
// as a prefix, in order. `history_trimmed_through` in `folio_metadata`
// records the newest position ever trimmed: a reader behind it has lost
// rows, whether or not its own reader row survived. A replica's file adds
// `outbox` to the history: a local save's record for the server, kept in
// the row the save writes anyway (no page of its own), cleared once the
// server has it; trimming keeps the rows that still hold one.
extension SQLiteConnection {
    /// Whether this file's history has a replica's `outbox` column.
    package func historyHasOutbox() throws -> Bool {
        try !rows("SELECT 1 FROM pragma_table_info('folio_history') WHERE name = 'outbox'").isEmpty
    }
}

extension SQLiteBackend {
    /// Writes a save's history row, with what a replica's journal keeps in it (`outbox`, nil on a plain store).
    func writeHistory(author: String, changes: String, outbox: String?) throws {
        if let outbox {
            try connection.run(
                "INSERT INTO folio_history (author, changes, outbox) VALUES (?, ?, ?)", [.text(author), .text(changes), .text(outbox)])
        } else {
            try connection.run("INSERT INTO folio_history (author, changes) VALUES (?, ?)", [.text(author), .text(changes)])
        }
    }

    /// The rows after `position` (changes of `author`'s own saves left
    /// empty), with the trim mark and the newest position, from one snapshot.
    func readHistory(after position: Int64, excludingAuthor author: String) throws -> HistoryRead {
        try connection.execute("BEGIN")
        do {
            let rows = try connection.rows(
                """
                SELECT position, author, CASE WHEN author = ? THEN '' ELSE changes END
                FROM folio_history WHERE position > ? ORDER BY position
                """, [.text(author), .integer(position)])
            var read = HistoryRead(rows: [], trimmed: try trimmedThrough() > position, latest: try latestHistoryPosition())
            for row in rows {
                guard case .integer(let p) = row[0], case .text(let who) = row[1], case .text(let text) = row[2] else { continue }
                read.rows.append((p, who == author ? ChangeSet() : ChangeSet(historyText: text, origin: .otherProcess)))
            }
            try connection.execute("COMMIT")
            return read
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }

    func storeIdentifier() throws -> String? {
        if case .text(let id)? = try connection.rows("SELECT value FROM folio_metadata WHERE key = 'store_identifier'").first?.first {
            return id
        }
        return nil
    }

    func latestHistoryPosition() throws -> Int64 {
        if case .integer(let p)? = try connection.rows("SELECT max(position) FROM folio_history").first?.first { return p }
        if case .integer(let p)? = try connection.rows("SELECT seq FROM sqlite_sequence WHERE name = 'folio_history'").first?.first {
            return p
        }
        return 0
    }

    /// Adds `reader` at the newest position, in one write transaction, and returns that position.
    func registerReader(_ reader: String) throws -> Int64 {
        try connection.withDeadline(connection.deadlineFromNow) { try connection.execute("BEGIN IMMEDIATE") }
        do {
            let position = try latestHistoryPosition()
            try connection.run(
                "INSERT OR REPLACE INTO folio_readers (reader, position, seen) VALUES (?, ?, ?)",
                [.text(reader), .integer(position), .real(Date().timeIntervalSince1970)])
            try connection.execute("COMMIT")
            return position
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }

    /// The newest position ever trimmed (0 when nothing was).
    private func trimmedThrough() throws -> Int64 {
        guard
            case .text(let text)? = try connection.rows(
                "SELECT value FROM folio_metadata WHERE key = 'history_trimmed_through'"
            ).first?.first
        else { return 0 }
        return Int64(text) ?? 0
    }

    /// Records `reader` at `position`, drops readers silent for `silenceLimit`
    /// seconds, and trims the rows every remaining reader has read. Fails at
    /// once (busy) rather than wait for another writer.
    func acknowledge(reader: String, position: Int64, silenceLimit: Double) throws {
        let now = Date().timeIntervalSince1970
        try connection.withDeadline(DispatchTime.now().uptimeNanoseconds) {
            try connection.execute("BEGIN IMMEDIATE")
        }
        do {
            try connection.run(
                "INSERT OR REPLACE INTO folio_readers (reader, position, seen) VALUES (?, ?, ?)",
                [.text(reader), .integer(position), .real(now)])
            try connection.run("DELETE FROM folio_readers WHERE seen < ?", [.real(now - silenceLimit)])
            if case .integer(let passed)? = try connection.rows(
                """
                SELECT max(position) FROM folio_history WHERE position <= (SELECT min(position) FROM folio_readers)
                """
            ).first?.first {
                if try connection.historyHasOutbox() {
                    // A replica's save the server does not have yet stays (readers are past it, so none reads it
                    // again); only rows past the last trim are looked at, and the push deletes what stayed once sent.
                    try connection.run(
                        "DELETE FROM folio_history WHERE position > ? AND position <= ? AND outbox IS NULL",
                        [.integer(try trimmedThrough()), .integer(passed)])
                } else {
                    try connection.run("DELETE FROM folio_history WHERE position <= ?", [.integer(passed)])
                }
                if passed > (try trimmedThrough()) {
                    try connection.run(
                        "INSERT OR REPLACE INTO folio_metadata (key, value) VALUES ('history_trimmed_through', ?)",
                        [.text(String(passed))])
                }
            }
            try connection.execute("COMMIT")
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }

    func removeReader(_ reader: String) throws {
        try connection.withDeadline(DispatchTime.now().uptimeNanoseconds) {
            try connection.run("DELETE FROM folio_readers WHERE reader = ?", [.text(reader)])
        }
    }
}
