import CSQLite
import FolioTestSupport
import Foundation
import Testing

@testable import FolioStore

/// The write-ahead log is checkpointed off the save path and stays bounded.
@MainActor
@Suite struct CheckpointTests {
    func fileSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
    }

    /// Saves `count` rounds of 200 items with 5 KB of text each (about 1 MB a save).
    func saveRounds(_ count: Int, in container: PersistentContainer) throws {
        let text = String(repeating: "w", count: 5000)
        for round in 0..<count {
            for i in 0..<200 {
                let item = TestItem(context: container.viewContext)
                item.count = round * 200 + i
                item.text = text
            }
            try container.viewContext.save()
        }
    }

    @Test func savesDoNotCheckpointAndTheBackgroundKeepsTheLogShort() throws {
        let dir = try StoreTemporaryDirectory()
        let path = dir.path("log.sqlite")
        let container = try PersistentContainer(schema: StoreTestSchema.make(), path: path, pollInterval: 3600)
        let auto = try container.coordinator.withBackend { try ($0 as! SQLiteBackend).connection.rows("PRAGMA wal_autocheckpoint") }
        #expect(auto.first?.first == .integer(0))
        try saveRounds(60, in: container)  // about 60 MB through the log
        let checkpointer = try #require(container.coordinator.withBackend { ($0 as! SQLiteBackend).checkpointer })
        #expect(checkpointer.waitForScheduled() > 0)
        try saveRounds(1, in: container)  // restarts the log after the finished checkpoint
        #expect(fileSize(path + "-wal") < 32 << 20, "log \(fileSize(path + "-wal")) bytes after 60 MB of saves")
        #expect(try container.viewContext.count(for: FetchRequest<TestItem>()) == 61 * 200)
        #expect(integrityCheck(path) == "ok")
    }

    @Test func closingTruncatesTheLogWhileAnotherConnectionStaysOpen() throws {
        let dir = try StoreTemporaryDirectory()
        let path = dir.path("close.sqlite")
        var container: PersistentContainer? = try PersistentContainer(schema: StoreTestSchema.make(), path: path, pollInterval: 3600)
        // Another connection keeps SQLite from removing the log on close; ours must still truncate it.
        var other: OpaquePointer?
        #expect(sqlite3_open_v2(path, &other, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK)
        defer { sqlite3_close(other) }
        // Reading once joins the log's shared memory, as another process's container does.
        #expect(sqlite3_exec(other, "SELECT count(*) FROM sqlite_master", nil, nil, nil) == SQLITE_OK)
        try saveRounds(3, in: container!)
        #expect(fileSize(path + "-wal") > 0)
        container = nil
        #expect(fileSize(path + "-wal") == 0)
        #expect(integrityCheck(path) == "ok")
        let reopened = try PersistentContainer(schema: StoreTestSchema.make(), path: path, pollInterval: 3600)
        #expect(try reopened.viewContext.count(for: FetchRequest<TestItem>()) == 600)
    }
}
