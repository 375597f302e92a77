import FolioTestSupport
import Foundation
import Testing

@testable import FolioStore

/// A replica's file keeps each save's record for the server in its history
/// row (`outbox`): trimming must keep such a row until the record is sent,
/// and readers must see only its changes.
@MainActor
@Suite struct HistoryOutboxTrimTests {
    @Test func trimmingKeepsTheRowsWhoseRecordIsNotSentAndDropsTheRest() throws {
        let dir = try StoreTemporaryDirectory()
        let path = dir.path("outbox.sqlite")
        _ = try PersistentContainer(schema: StoreTestSchema.make(), path: path, pollInterval: 3600)
        let backend = try SQLiteBackend(path: path, busyTimeoutMilliseconds: 1000)
        try backend.connection.execute("ALTER TABLE folio_history ADD COLUMN outbox TEXT")
        #expect(try backend.connection.historyHasOutbox())
        let start = try backend.registerReader("reader")
        try backend.writeHistory(author: "a", changes: "", outbox: nil)
        try backend.writeHistory(author: "a", changes: "", outbox: "waiting")
        try backend.writeHistory(author: "a", changes: "", outbox: nil)

        // Read through the newest row: every row but the one still waiting goes.
        try backend.acknowledge(reader: "reader", position: start + 3, silenceLimit: 3600)
        let left = try backend.connection.rows("SELECT position, outbox FROM folio_history ORDER BY position")
        #expect(left.count == 1, "\(left)")
        #expect(left.first == [.integer(start + 2), .text("waiting")], "\(left)")
        // Nothing is read again: a reader past the kept row does not see it.
        #expect(try backend.readHistory(after: start + 3, excludingAuthor: "b").rows.isEmpty)

        // A trim looks only past the last one (its sender deletes it once sent): the next rows go, it stays.
        try backend.writeHistory(author: "a", changes: "", outbox: nil)
        try backend.acknowledge(reader: "reader", position: start + 4, silenceLimit: 3600)
        #expect(try backend.connection.rows("SELECT position FROM folio_history") == [[.integer(start + 2)]])
    }

    @Test func aPlainStoresHistoryHasNoOutboxAndTrimsAsBefore() throws {
        let dir = try StoreTemporaryDirectory()
        let path = dir.path("plain.sqlite")
        _ = try PersistentContainer(schema: StoreTestSchema.make(), path: path, pollInterval: 3600)
        let backend = try SQLiteBackend(path: path, busyTimeoutMilliseconds: 1000)
        #expect(try !backend.connection.historyHasOutbox())
        let start = try backend.registerReader("reader")
        try backend.writeHistory(author: "a", changes: "", outbox: nil)
        try backend.acknowledge(reader: "reader", position: start + 1, silenceLimit: 3600)
        #expect(try backend.connection.rows("SELECT count(*) FROM folio_history") == [[.integer(0)]])
    }
}
