import CSQLite
import FolioStore
import FolioTestSupport
import Foundation
import Testing

/// Finding 9 (check-then-write races): `performWrite` decides inside one
/// write transaction, so what its body read still holds when the save
/// lands, whatever other connections and processes do.
@MainActor
@Suite struct WriteTransactionTests {
    @Test func theBodyReadsTheLatestCommitOfAnotherConnection() throws {
        let dir = try StoreTemporaryDirectory()
        let path = dir.path("zoo.sqlite")
        let mine = try PersistentContainer(schema: StoreTestSchema.make(), path: path, pollInterval: 3600)
        let theirs = try PersistentContainer(schema: StoreTestSchema.make(), path: path, pollInterval: 3600)
        let item = TestItem(context: mine.viewContext)
        item.count = 1
        try mine.viewContext.save()
        let other = try #require(try theirs.viewContext.fetch(FetchRequest<TestItem>()).first)
        other.count = 5
        try theirs.viewContext.save()
        // Not merged yet (no poll): outside a write transaction the context still has 1.
        #expect(item.count == 1)
        let seen = try mine.viewContext.performWrite { item.count }
        #expect(seen == 5)
    }

    @Test func noOtherWriterCommitsWhileTheBodyRuns() throws {
        let dir = try StoreTemporaryDirectory()
        let path = dir.path("zoo.sqlite")
        let container = try PersistentContainer(schema: StoreTestSchema.make(), path: path, pollInterval: 3600)
        var other: OpaquePointer?
        #expect(sqlite3_open(path, &other) == SQLITE_OK)
        defer { sqlite3_close(other) }
        try container.viewContext.performWrite {
            #expect(sqlite3_exec(other, "BEGIN IMMEDIATE", nil, nil, nil) == SQLITE_BUSY)
            TestAnimal(context: container.viewContext).commonName = "Ocelot"
        }
        sqlite3_busy_timeout(other, 5000)  // the container may be recording its reader position just now
        #expect(sqlite3_exec(other, "BEGIN IMMEDIATE; COMMIT", nil, nil, nil) == SQLITE_OK)
        #expect(try container.viewContext.count(for: FetchRequest<TestAnimal>()) == 1)
    }

    @Test func aBodyThatThrowsWritesNothingAndKeepsItsChanges() throws {
        struct Refused: Error {}
        let dir = try StoreTemporaryDirectory()
        for path in [nil, dir.path("zoo.sqlite")] as [String?] {
            let container = try PersistentContainer(schema: StoreTestSchema.make(), path: path, pollInterval: 3600)
            let c = container.viewContext
            #expect(throws: Refused.self) {
                try c.performWrite {
                    TestAnimal(context: c).commonName = "Ocelot"
                    throw Refused()
                }
            }
            #expect(c.hasChanges)
            c.rollback()
            #expect(try c.count(for: FetchRequest<TestAnimal>()) == 0)
            // A save that fails validation inside the transaction is the same.
            #expect(throws: StoreError.self) { try c.performWrite { _ = TestAnimal(context: c) } }
            #expect(c.hasChanges)
            c.rollback()
            #expect(
                try c.performWrite { () -> Int in
                    TestAnimal(context: c).commonName = "Tapir"
                    return try c.count(for: FetchRequest<TestAnimal>())
                } == 1)
            #expect(try c.count(for: FetchRequest<TestAnimal>()) == 1)
        }
    }

    @Test func otherContextsHearTheSave() async throws {
        let dir = try StoreTemporaryDirectory()
        let container = try PersistentContainer(schema: StoreTestSchema.make(), path: dir.path("zoo.sqlite"), pollInterval: 3600)
        let background = container.newBackgroundContext()
        let before = try await background.perform { try $0.count(for: FetchRequest<TestAnimal>()) }
        var heard: [ChangeSet] = []
        let token = container.viewContext.observeChanges { heard.append($0) }
        try await background.perform { context in
            try context.performWrite { TestAnimal(context: context).commonName = "Okapi" }
        }
        #expect(before == 0)
        #expect(await waitUntil { heard.count == 1 })
        #expect(heard.first?.inserted.count == 1)
        token.cancel()
    }
}

/// The same race between real processes: six `folio-store-worker`s released
/// at once each add animals in the classification of one new order, or
/// append items after the largest number.
@Suite(.serialized) struct WriteTransactionProcessTests {
    let worker = StoreChildProcess.sibling("folio-store-worker")

    /// Starts `count` workers with `arguments`, releases them together, and waits for all.
    ///
    /// One deadline covers the whole race: six processes taking one write
    /// lock in turns, twenty times each, can take minutes on a loaded
    /// two-core machine, where a waiting process is often not even scheduled.
    func race(_ count: Int, _ arguments: [String]) async throws {
        let children = try (0..<count).map { _ in try StoreChildProcess(executable: worker, arguments: arguments) }
        for child in children { #expect(await child.waitForLine { $0 == "ready" } != nil) }
        for child in children { child.closeInput() }
        let deadline = Date().addingTimeInterval(600)
        for (index, child) in children.enumerated() {
            let done = await child.waitForLine(timeout: max(1, deadline.timeIntervalSinceNow)) { $0 == "done" }
            #expect(done != nil, "worker \(index) ended or ran past 600 s without finishing; it printed \(child.lines.map(\.line))")
            await child.finish()
            #expect(child.terminationStatus == 0, "worker \(index) ended with status \(child.terminationStatus)")
        }
    }

    @MainActor
    func counts(_ path: String) throws -> (classifications: Int, animals: Int, items: [Int]) {
        let c = try PersistentContainer(schema: StoreTestSchema.make(), path: path, pollInterval: 3600).viewContext
        let items = try c.fetch(FetchRequest<TestItem>(sortBy: [SortDescriptor(\.count)])).map(\.count)
        return (try c.count(for: FetchRequest<TestClassification>()), try c.count(for: FetchRequest<TestAnimal>()), items)
    }

    @Test func concurrentAddsWithANewOrderMakeOneClassification() async throws {
        let dir = try StoreTemporaryDirectory()
        for round in 0..<3 {
            let path = dir.path("order-\(round).sqlite")
            _ = try await MainActor.run { try PersistentContainer(schema: StoreTestSchema.make(), path: path) }
            try await race(6, ["add-in-order", path, "Pilosa", "5"])
            let found = try await counts(path)
            #expect(found.classifications == 1, "round \(round)")
            #expect(found.animals == 30, "round \(round)")
        }
    }

    @Test func concurrentAppendsTakeDistinctPositions() async throws {
        let dir = try StoreTemporaryDirectory()
        let path = dir.path("append.sqlite")
        _ = try await MainActor.run { try PersistentContainer(schema: StoreTestSchema.make(), path: path) }
        try await race(6, ["append", path, "20"])
        #expect(try await counts(path).items == Array(1...120))
    }
}
