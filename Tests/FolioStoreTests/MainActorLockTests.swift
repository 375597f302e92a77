import CSQLite
import FolioStore
import FolioTestSupport
import Foundation
import Testing

/// Another connection holding the store's write lock: the main actor's
/// reads go on, a save gives up after its own timeout, and a waiting save
/// leaves the main actor free and saves once the lock is released.
@MainActor
@Suite struct MainActorLockTests {
    /// A raw SQLite connection holding the write lock (with one uncommitted row) until `release()`.
    final class LockHolder {
        private var db: OpaquePointer?
        init(_ path: String) {
            #expect(sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK)
            sqlite3_busy_timeout(db, 5000)  // the container may be recording its reader position
            #expect(
                sqlite3_exec(db, "BEGIN IMMEDIATE; INSERT INTO TestAnimal (commonName, legs) VALUES ('Uncommitted', 0)", nil, nil, nil)
                    == SQLITE_OK)
        }
        func release() {
            guard db != nil else { return }
            #expect(sqlite3_exec(db, "ROLLBACK", nil, nil, nil) == SQLITE_OK)
            sqlite3_close(db)
            db = nil
        }
        deinit { release() }
    }

    func container(_ dir: StoreTemporaryDirectory, busyTimeout: Double) throws -> PersistentContainer {
        let container = try PersistentContainer(schema: StoreTestSchema.make(), path: dir.path("locked.sqlite"), busyTimeout: busyTimeout)
        let a = TestAnimal(context: container.viewContext)
        a.commonName = "Ocelot"
        try container.viewContext.save()
        return container
    }

    @Test func aMainActorReadDoesNotWaitWhileAnotherConnectionHoldsTheWriteLock() async throws {
        let dir = try StoreTemporaryDirectory()
        let container = try container(dir, busyTimeout: 3)
        // Taken at once, while the store still has its first save to
        // acknowledge (and its first heartbeat to write).
        let lock = LockHolder(dir.path("locked.sqlite"))
        try await Task.sleep(for: .milliseconds(200))
        var slowest = 0.0
        for _ in 0..<5 {
            let start = Date()
            #expect(try container.viewContext.count(for: FetchRequest<TestAnimal>()) >= 1)
            slowest = max(slowest, Date().timeIntervalSince(start))
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(slowest < 0.5, "a main-actor count took \(slowest) s behind another connection's write lock")
        lock.release()
    }

    @Test func aSaveGivesUpAfterItsTimeoutNotAMultipleOfIt() async throws {
        let dir = try StoreTemporaryDirectory()
        let container = try container(dir, busyTimeout: 1)
        let lock = LockHolder(dir.path("locked.sqlite"))
        try await Task.sleep(for: .milliseconds(100))
        let a = TestAnimal(context: container.viewContext)
        a.commonName = "Tapir"
        let start = Date()
        #expect(throws: StoreError.busy(path: dir.path("locked.sqlite"))) { try container.viewContext.save() }
        let waited = Date().timeIntervalSince(start)
        #expect(waited >= 0.9 && waited < 1.5, "a save with a 1 s timeout gave up after \(waited) s")
        #expect(container.viewContext.hasChanges)
        lock.release()
        try container.viewContext.save()
        #expect(try container.viewContext.count(for: FetchRequest<TestAnimal>()) == 2)
    }

    /// Changes made while the save waits are saved with it: the save writes
    /// what the context holds once it has the lock.
    @Test func aWaitingSaveLeavesTheMainActorFreeAndSavesWhatTheContextHoldsOnceTheLockIsFree() async throws {
        let dir = try StoreTemporaryDirectory()
        // A timeout far longer than the test: each turn below can wait behind
        // other suites' main-actor steps, which yield but add up under load.
        let container = try container(dir, busyTimeout: 600)
        let c = container.viewContext
        let ocelot = try #require(try c.fetch(FetchRequest<TestAnimal>()).first)
        let lock = LockHolder(dir.path("locked.sqlite"))
        ocelot.habitat = "Before the wait"
        let outcome = SaveOutcome()
        let save = Task { @MainActor in
            defer { outcome.finished = true }
            try await c.saveWhenWritable()
        }
        // The main actor takes a turn (a frame, a key) while the save waits for the
        // lock. One: in a full run each turn waits behind every other main-actor
        // test's next step (about 40 s under load).
        try await Task.sleep(for: .milliseconds(5))
        #expect(!outcome.finished, "the save finished (or gave up) while another connection held the lock")
        // The user goes on editing meanwhile.
        ocelot.habitat = "During the wait"
        let tapir = TestAnimal(context: c)
        tapir.commonName = "Tapir"
        lock.release()
        try await save.value
        #expect(!c.hasChanges)
        #expect(!tapir.objectID.isTemporary)
        let reader = try PersistentContainer(schema: StoreTestSchema.make(), path: dir.path("locked.sqlite"))
        let stored = try reader.viewContext.fetch(FetchRequest<TestAnimal>(sortBy: [SortDescriptor(\.commonName)]))
        #expect(stored.map(\.commonName) == ["Ocelot", "Tapir"])
        #expect(stored.first?.habitat == "During the wait")
    }

    @Test func aWaitingSaveThatTimesOutSaysBusyAndKeepsEveryChange() async throws {
        let dir = try StoreTemporaryDirectory()
        let container = try container(dir, busyTimeout: 0.6)
        let c = container.viewContext
        let lock = LockHolder(dir.path("locked.sqlite"))
        let tapir = TestAnimal(context: c)
        tapir.commonName = "Tapir"
        let start = Date()
        let result = await c.saveResult()
        let waited = Date().timeIntervalSince(start)
        guard case .failure(let error) = result else { Issue.record("the save succeeded while the lock was held"); return }
        #expect(error == StoreError.busy(path: dir.path("locked.sqlite")))
        #expect(waited >= 0.55, "gave up after \(waited) s with a 0.6 s timeout")
        #expect(c.hasChanges && tapir.objectID.isTemporary)
        lock.release()
        try await c.saveWhenWritable()
        #expect(!c.hasChanges)
        #expect(try c.count(for: FetchRequest<TestAnimal>()) == 2)
    }
}

/// Whether a save started in a task has finished.
@MainActor final class SaveOutcome {
    var finished = false
}

extension ObjectContext {
    /// The outcome of ``saveWhenWritable()`` as a value, for comparisons.
    @MainActor
    func saveResult() async -> Result<Void, StoreError> {
        do {
            try await saveWhenWritable()
            return .success(())
        } catch let error as StoreError {
            return .failure(error)
        } catch {
            Issue.record("unexpected error \(error)")
            return .failure(.busy(path: "?"))
        }
    }
}
