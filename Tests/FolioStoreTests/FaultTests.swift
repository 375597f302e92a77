import CSQLite
import FolioTestSupport
import Foundation
import Testing

@testable import FolioStore

@MainActor
@Suite struct FaultTests {
    @Test func aFileThatIsNotADatabaseIsNamedAndLeftAlone() throws {
        let dir = try StoreTemporaryDirectory()
        let path = dir.path("notes.txt")
        let text = Data("shopping list: milk, eggs, bread\n".utf8)
        try text.write(to: URL(fileURLWithPath: path))
        #expect(throws: StoreError.notADatabase(path: path)) {
            _ = try PersistentContainer(schema: StoreTestSchema.make(), path: path)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == text)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
    }

    @Test func aDamagedDatabaseIsReportedAndNotOverwritten() throws {
        let dir = try StoreTemporaryDirectory()
        let path = dir.path("zoo.sqlite")
        do {
            let container = try PersistentContainer(schema: StoreTestSchema.make(), path: path)
            for i in 0..<300 {
                let a = TestAnimal(context: container.viewContext)
                a.commonName = "Animal \(i) " + String(repeating: "x", count: 200)
            }
            try container.viewContext.save()
        }
        // Keep the header, scribble over every page after the first.
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        for i in stride(from: 4096, to: bytes.count, by: 7) { bytes[i] = 0xA5 }
        try bytes.write(to: URL(fileURLWithPath: path))
        try? FileManager.default.removeItem(atPath: path + "-wal")
        try? FileManager.default.removeItem(atPath: path + "-shm")
        var failure: StoreError?
        do {
            let container = try PersistentContainer(schema: StoreTestSchema.make(), path: path)
            _ = try container.viewContext.fetch(FetchRequest<TestAnimal>()).map(\.commonName)
        } catch let error as StoreError {
            failure = error
        }
        guard case .corrupt(let named, _)? = failure else {
            Issue.record("expected a corrupt-store error, got \(String(describing: failure))")
            return
        }
        #expect(named == path)
        #expect("\(failure!)".contains(path))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
    }

    @Test func aLockedDatabaseWaitsThenFailsClearly() throws {
        let dir = try StoreTemporaryDirectory()
        let path = dir.path("zoo.sqlite")
        let container = try PersistentContainer(schema: StoreTestSchema.make(), path: path, busyTimeout: 0.2)
        var other: OpaquePointer?
        #expect(sqlite3_open(path, &other) == SQLITE_OK)
        defer { sqlite3_close(other) }
        sqlite3_busy_timeout(other, 5000)  // the container records its reader position just after opening
        #expect(sqlite3_exec(other, "BEGIN IMMEDIATE", nil, nil, nil) == SQLITE_OK)
        let a = TestAnimal(context: container.viewContext)
        a.commonName = "Ocelot"
        let start = Date()
        #expect(throws: StoreError.busy(path: path)) { try container.viewContext.save() }
        #expect(Date().timeIntervalSince(start) >= 0.15)
        #expect(container.viewContext.hasChanges)
        #expect(sqlite3_exec(other, "COMMIT", nil, nil, nil) == SQLITE_OK)
        try container.viewContext.save()
        #expect(try container.viewContext.count(for: FetchRequest<TestAnimal>()) == 1)
    }

    @Test func aFullDiskFailsTheSaveAndKeepsEarlierSaves() throws {
        let dir = try StoreTemporaryDirectory()
        let path = dir.path("zoo.sqlite")
        let container = try PersistentContainer(schema: StoreTestSchema.make(), path: path)
        let c = container.viewContext
        let first = TestAnimal(context: c)
        first.commonName = "Ocelot"
        try c.save()
        // Cap the file at its current size: the next big save cannot fit, as on a full disk.
        try container.coordinator.withBackend { backend in
            let pages = try (backend as! SQLiteBackend).connection.rows("PRAGMA page_count")
            try (backend as! SQLiteBackend).connection.execute("PRAGMA max_page_count = \(pages[0][0].description)")
        }
        for i in 0..<500 {
            let a = TestAnimal(context: c)
            a.commonName = "Animal \(i) " + String(repeating: "y", count: 300)
        }
        #expect(throws: StoreError.diskFull(path: path)) { try c.save() }
        #expect(c.hasChanges)
        #expect(integrityCheck(path) == "ok")
        let reader = try PersistentContainer(schema: StoreTestSchema.make(), path: path)
        #expect(try reader.viewContext.fetch(FetchRequest<TestAnimal>()).map(\.commonName) == ["Ocelot"])
    }
}

@MainActor
@Suite struct HistoryTests {
    func historyRows(_ container: PersistentContainer) throws -> Int {
        try container.coordinator.withBackend { backend in
            let rows = try (backend as! SQLiteBackend).connection.rows("SELECT count(*) FROM folio_history")
            if case .integer(let n) = rows[0][0] { return Int(n) }
            return -1
        }
    }

    @Test func historyIsTrimmedOnceEveryReaderHasSeenIt() async throws {
        let dir = try StoreTemporaryDirectory()
        let path = dir.path("shared.sqlite")
        let writer = try PersistentContainer(schema: StoreTestSchema.make(), path: path, pollInterval: 3600)
        let reader = try PersistentContainer(schema: StoreTestSchema.make(), path: path, pollInterval: 3600)
        var heard: [ChangeSet] = []
        let token = reader.viewContext.observeChanges { heard.append($0) }
        for name in ["Ocelot", "Tapir", "Okapi"] {
            let a = TestAnimal(context: writer.viewContext)
            a.commonName = name
            try writer.viewContext.save()
        }
        reader.checkForExternalChanges()
        #expect(await waitUntil { heard.flatMap(\.inserted).count == 3 })
        // The writer has read past its own rows as well; then nothing is left to keep.
        writer.checkForExternalChanges()
        reader.checkForExternalChanges()
        #expect(try historyRows(writer) == 0)
        token.cancel()
    }
}

@MainActor
@Suite struct VanishedRowTests {
    @Test func readingARowAnotherProcessJustDeletedDoesNotCrash() throws {
        let dir = try StoreTemporaryDirectory()
        let path = dir.path("shared.sqlite")
        let mine = try PersistentContainer(schema: StoreTestSchema.make(), path: path, pollInterval: 3600)
        let theirs = try PersistentContainer(schema: StoreTestSchema.make(), path: path, pollInterval: 3600)
        let a = TestAnimal(context: mine.viewContext)
        a.commonName = "Ocelot"
        a.legs = 4
        try mine.viewContext.save()
        mine.viewContext.refresh(a, mergeChanges: false)
        let other = try #require(try theirs.viewContext.fetch(FetchRequest<TestAnimal>()).first)
        theirs.viewContext.delete(other)
        try theirs.viewContext.save()
        // Before the change set arrives, the fault reads as defaults.
        #expect(a.commonName == "")
        #expect(a.legs == 4)
    }
}
