import FolioStore
import Foundation

extension ReplicaFile {
    /// Gives the history its `outbox` column, once, in one write transaction.
    /// A file from before keeps its waiting saves in a table of their own
    /// (`folio_outbox`): they move into history rows of their own, in their
    /// order, numbered past every number that table handed out (the server
    /// records the numbers it has, so an entry must never take a smaller
    /// one), and the table goes. What the last sync could not settle follows
    /// its entry's new number.
    func migrateOutbox(author: String) throws {
        if try connection.historyHasOutbox() { return }
        try write {
            // Another process may have done it while this one waited for the lock.
            if try connection.historyHasOutbox() { return }
            try connection.execute("ALTER TABLE folio_history ADD COLUMN outbox TEXT")
            guard try !connection.rows("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'folio_outbox'").isEmpty else {
                return
            }
            let handedOut = try number("SELECT seq FROM sqlite_sequence WHERE name = 'folio_outbox'")
            let history = try number("SELECT max(seq) FROM sqlite_sequence WHERE name = 'folio_history'")
            let start = max(handedOut, history, try number("SELECT max(position) FROM folio_history"))
            try connection.run("DELETE FROM sqlite_sequence WHERE name = 'folio_history'")
            try connection.run("INSERT INTO sqlite_sequence (name, seq) VALUES ('folio_history', ?)", [.integer(start)])
            let oldSeqs = try connection.rows("SELECT seq FROM folio_outbox ORDER BY seq").compactMap { row -> Int64? in
                if case .integer(let seq) = row[0] { return seq }
                return nil
            }
            try connection.run(
                "INSERT INTO folio_history (author, changes, outbox) SELECT ?, '', entry FROM folio_outbox ORDER BY seq", [.text(author)])
            try connection.execute("DROP TABLE folio_outbox")
            // Entries through `start` were numbered by the old table: all that waited now lie past it.
            try setMetadata("replica_outbox_from", String(start))
            if let text = try metadata("replica_unsettled"),
                var unsettled = try? JSONDecoder().decode(Unsettled.self, from: Data(text.utf8)),
                let index = oldSeqs.firstIndex(of: unsettled.seq)
            {
                unsettled.seq = start + 1 + Int64(index)
                try setMetadata("replica_unsettled", String(decoding: try JSONEncoder().encode(unsettled), as: UTF8.self))
            }
        }
    }

    private func number(_ sql: String) throws -> Int64 {
        if case .integer(let n)? = try connection.rows(sql).first?.first { return n }
        return 0
    }
}
