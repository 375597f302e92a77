import CSQLite
import FolioStore
import FolioTestSupport
import Foundation
import Testing

/// Opening a store again in a process must not drop the locks its open
/// connections hold: with them gone, another process closing took itself
/// for the last connection and deleted the log under them.
@MainActor
@Suite struct ProcessLockTests {
    func insert(_ name: String, in container: PersistentContainer) throws {
        let a = TestAnimal(context: container.viewContext)
        a.commonName = name
        try container.viewContext.save()
    }

    @Test func aStoreOpenedTwiceInOneProcessKeepsItsLogWhenAnotherProcessCloses() async throws {
        let dir = try StoreTemporaryDirectory()
        let path = dir.path("twice.sqlite")
        let first = try PersistentContainer(schema: StoreTestSchema.make(), path: path)
        try insert("Ocelot", in: first)
        // Opening the same file again reads its header.
        let second = try PersistentContainer(schema: StoreTestSchema.make(), path: path)
        let child = try StoreChildProcess(
            executable: StoreChildProcess.sibling("folio-store-worker"),
            arguments: ["insert-and-close", path, "Tapir"])
        // Closing, the child looks for other connections: it must find ours.
        #expect(await child.waitForLine { $0 == "closed" } != nil)
        await child.finish()
        #expect(FileManager.default.fileExists(atPath: path + "-wal"), "the log was deleted while this process had the store open")
        try insert("Okapi", in: first)
        try insert("Manatee", in: second)
        #expect(try first.viewContext.count(for: FetchRequest<TestAnimal>()) == 4)
        // A fresh process-level view of the file (a new connection) sees every save.
        var db: OpaquePointer?
        #expect(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, nil) == SQLITE_OK)
        defer { sqlite3_close(db) }
        var s: OpaquePointer?
        #expect(sqlite3_prepare_v2(db, "SELECT count(*) FROM TestAnimal", -1, &s, nil) == SQLITE_OK)
        defer { sqlite3_finalize(s) }
        #expect(sqlite3_step(s) == SQLITE_ROW && sqlite3_column_int64(s, 0) == 4)
        #expect(integrityCheck(path) == "ok")
    }
}
