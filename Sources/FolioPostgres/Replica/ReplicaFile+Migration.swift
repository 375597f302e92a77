import FolioStore
import Foundation

extension ReplicaFile {
    /// Gives the history its `outbox` column, once, in one write transaction.
    /// A file from before keeps its waiting saves in a table of their own
    /// (`folio_outbox`): they move into history rows of their own, in their
    /// order, numbered past every number that table handed out (the server
    /// records the numbers it has, so an entry must never take a smaller
    /// one), and the table goes. What the last sync could not settle follows
    /// its entry's new number. Then ``olderBuildsOutboxSQL`` keeps an older
    /// build from losing them.
    func migrateOutbox(author: String) throws {
        if try isOutboxInHistory() { return }
        try write {
            // Another process may have done it while this one waited for the lock.
            if try isOutboxInHistory() { return }
            if try !connection.historyHasOutbox() { try connection.execute("ALTER TABLE folio_history ADD COLUMN outbox TEXT") }
            if try !connection.rows("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'folio_outbox'").isEmpty {
                try moveOutboxTable(author: author)
            }
            try connection.execute(Self.olderBuildsOutboxSQL)
        }
    }

    /// Whether the outbox is the history's column, with the view an older build finds.
    private func isOutboxInHistory() throws -> Bool {
        try connection.historyHasOutbox()
            && !connection.rows("SELECT 1 FROM sqlite_master WHERE type = 'view' AND name = 'folio_outbox'").isEmpty
    }

    private func moveOutboxTable(author: String) throws {
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

    /// What an older build, which keeps its waiting saves in a table named
    /// `folio_outbox`, meets in this file, so it loses none of them: a view
    /// of that name (its `CREATE TABLE IF NOT EXISTS` leaves it be) showing
    /// the waiting entries by their numbers, whose inserts become history
    /// rows of their own and whose deletes (a push) clear the entry; and
    /// history rows whose entry waits are never deleted (an older build's
    /// trimming passes over them; this build clears the entry first).
    static let olderBuildsOutboxSQL = """
        CREATE VIEW IF NOT EXISTS folio_outbox (seq, entry) AS
          SELECT position, outbox FROM folio_history WHERE outbox IS NOT NULL;
        CREATE TRIGGER IF NOT EXISTS folio_outbox_insert INSTEAD OF INSERT ON folio_outbox
          BEGIN INSERT INTO folio_history (author, changes, outbox) VALUES ('replica', '', NEW.entry); END;
        CREATE TRIGGER IF NOT EXISTS folio_outbox_delete INSTEAD OF DELETE ON folio_outbox
          BEGIN UPDATE folio_history SET outbox = NULL WHERE position = OLD.seq; END;
        CREATE TRIGGER IF NOT EXISTS folio_history_keeps_outbox BEFORE DELETE ON folio_history WHEN OLD.outbox IS NOT NULL
          BEGIN SELECT RAISE(IGNORE); END;
        """

    private func number(_ sql: String) throws -> Int64 {
        if case .integer(let n)? = try connection.rows(sql).first?.first { return n }
        return 0
    }
}

extension ReplicaFile {
    /// The column of each entity table holding the server version its row was last seen at here.
    static let serverVersionColumn = "folio_server_version"

    /// Gives each entity table the server version of its rows, copied from
    /// `folio_replica_rows.version` by triggers on that table: every path
    /// that records a version it did not write itself (pull, deletion,
    /// re-read, first sync, a read-back that found a newer one) sets the
    /// row's column in the same statement, so a save reads it from the page
    /// its update writes anyway. The push's own record of what it left
    /// (`base` written with `version`) is not copied: a push checks against
    /// the larger of the two, so the row is not written once more for it.
    /// Always `max(column, base) == version`; a row with no record (new
    /// here) has 0. A file from before gets the column and its values from
    /// the records, in one write transaction.
    func migrateServerVersions(_ schema: Schema) throws {
        func lacking() throws -> [EntityDescription] {
            try schema.entities.filter { entity in
                try connection.rows(
                    "SELECT 1 FROM pragma_table_info(?) WHERE name = ?", [.text(entity.name), .text(Self.serverVersionColumn)]
                ).isEmpty
            }
        }
        guard try !lacking().isEmpty else { return }
        try write {
            for entity in try lacking() {
                let table = quote(entity.name), column = Self.serverVersionColumn
                let name = "'" + entity.name.replacingOccurrences(of: "'", with: "''") + "'"
                try connection.execute("ALTER TABLE \(table) ADD COLUMN \(column) INTEGER NOT NULL DEFAULT 0")
                try connection.run(
                    "UPDATE \(table) SET \(column) = r.version FROM folio_replica_rows r WHERE r.entity = ? AND r.id = \(table).id",
                    [.text(entity.name)])
                try connection.execute(
                    """
                    CREATE TRIGGER IF NOT EXISTS \(quote("folio_server_version_insert_" + entity.name))
                    AFTER INSERT ON folio_replica_rows WHEN NEW.entity = \(name) AND NEW.base = 0
                    BEGIN UPDATE \(table) SET \(column) = NEW.version WHERE id = NEW.id; END;
                    CREATE TRIGGER IF NOT EXISTS \(quote("folio_server_version_update_" + entity.name))
                    AFTER UPDATE OF version ON folio_replica_rows WHEN NEW.entity = \(name) AND NEW.base = OLD.base
                    BEGIN UPDATE \(table) SET \(column) = NEW.version WHERE id = NEW.id; END;
                    CREATE TRIGGER IF NOT EXISTS \(quote("folio_server_version_delete_" + entity.name))
                    AFTER DELETE ON folio_replica_rows WHEN OLD.entity = \(name)
                    BEGIN UPDATE \(table) SET \(column) = 0 WHERE id = OLD.id; END;
                    """)
            }
        }
    }
}
