import FolioPostgres
import FolioStore
import FolioTestSupport
import Foundation
import Testing

/// Containers on one server ("machines") hear each other's saves through
/// LISTEN/NOTIFY and the history, and lose nothing when connections drop
/// or the server restarts.
@MainActor
@Suite struct PostgresFeedTests {
    /// Every object another container inserted, as this one heard it.
    final class Heard {
        var inserted: Set<ObjectID> = []
        var reloads = 0
    }

    func listen(_ container: PersistentContainer) -> (Heard, ObservationToken) {
        let heard = Heard()
        let token = container.viewContext.observeChanges { changes in
            if changes.isReload { heard.reloads += 1 }
            if changes.origin == .otherProcess { heard.inserted.formUnion(changes.inserted) }
        }
        return (heard, token)
    }

    func insert(_ names: [String], into container: PersistentContainer) throws -> Set<ObjectID> {
        let zoos = names.map { name in
            let zoo = TestZoo(context: container.viewContext)
            zoo.name = name
            return zoo
        }
        try container.viewContext.save()
        return Set(zoos.map(\.objectID))
    }

    @Test func anotherContainersSavesArriveAndKeepOrder() async throws {
        let uri = try await PostgresCluster.shared().makeDatabase()
        let a = try PersistentContainer(schema: StoreTestSchema.make(), store: .postgreSQL(uri))
        let b = try PersistentContainer(schema: StoreTestSchema.make(), store: .postgreSQL(uri))
        let (heard, token) = listen(b)
        var saved: Set<ObjectID> = []
        for round in 0..<20 { saved.formUnion(try insert(["zoo \(round)"], into: a)) }
        #expect(await waitUntil(20) { heard.inserted == saved }, "heard \(heard.inserted.count) of \(saved.count)")
        #expect(heard.reloads == 0)
        #expect(try b.viewContext.count(for: FetchRequest<TestZoo>()) == 20)
        _ = token
    }

    /// Two containers save in a random interleaving, in runs of their own
    /// (which a feed passes over without reading) and one after the other:
    /// each hears every save of the other exactly once, in order, and none
    /// of its own.
    @Test func interleavedSavesAreEachHeardOnceInOrder() async throws {
        var random = ResultsRandom.fromEnvironment()
        print("PostgresFeedTests.interleavedSavesAreEachHeardOnceInOrder seed: \(random.seed) (FOLIO_SEED replays)")
        let uri = try await PostgresCluster.shared().makeDatabase()
        let containers = try (0..<2).map { _ in try PersistentContainer(schema: StoreTestSchema.make(), store: .postgreSQL(uri)) }
        var heard: [[ObjectID]] = [[], []], saved: [[ObjectID]] = [[], []]
        let tokens = containers.indices.map { i in
            containers[i].viewContext.observeChanges { changes in
                #expect(!changes.isReload)
                if changes.origin == .otherProcess { heard[i] += changes.inserted.sorted { $0.rowID < $1.rowID } }
            }
        }
        for round in 0..<120 {
            let i = Int.random(in: 0..<2, using: &random)
            saved[i] += try insert(["zoo \(round)"], into: containers[i]).sorted { $0.rowID < $1.rowID }
            // Sometimes a turn of the main actor between saves, so that deliveries land between them.
            if Int.random(in: 0..<4, using: &random) == 0 { await Task.yield() }
        }
        #expect(
            await waitUntil(30) { heard[0].count == saved[1].count && heard[1].count == saved[0].count },
            "heard \(heard[0].count) of \(saved[1].count) and \(heard[1].count) of \(saved[0].count)")
        #expect(heard[0] == saved[1], "seed \(random.seed)")
        #expect(heard[1] == saved[0], "seed \(random.seed)")
        withExtendedLifetime(tokens) {}
    }

    @Test func endedConnectionsReconnectAndCatchUp() async throws {
        let cluster = try await PostgresCluster.shared()
        let uri = try await cluster.makeDatabase()
        let a = try PersistentContainer(schema: StoreTestSchema.make(), store: .postgreSQL(uri))
        let b = try PersistentContainer(schema: StoreTestSchema.make(), store: .postgreSQL(uri))
        let (heard, token) = listen(b)
        let first = try insert(["before"], into: a)
        #expect(await waitUntil(20) { heard.inserted == first })
        // End every connection of the database: the listener, the readers and the writers.
        try await cluster.runSQL(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '\(PostgresCluster.databaseName(uri))' AND pid <> pg_backend_pid()"
        )
        // A save right after may meet its dead connection: it fails visibly, and the next one reconnects.
        var saved = first
        do { saved.formUnion(try insert(["maybe"], into: a)) } catch let error as StoreError {
            guard case .offline = error else { throw error }
            a.viewContext.rollback()
        }
        saved.formUnion(try insert(["after 1", "after 2"], into: a))
        #expect(await waitUntil(20) { heard.inserted == saved }, "heard \(heard.inserted.count) of \(saved.count)")
        #expect(try b.viewContext.count(for: FetchRequest<TestZoo>()) == saved.count)
        _ = token
    }

    /// The server ends a container's idle sessions (its backends ended, or a
    /// restart), and the next save, whatever it writes, lands. A save is one
    /// round trip ending in its COMMIT, which is never sent twice (it may
    /// have landed), so the ended session must be found before anything is
    /// sent: before, a save of edits or deletions alone failed as offline.
    @Test func aSaveOfAnyKindAfterItsIdleSessionEndedLands() async throws {
        let cluster = try await PostgresCluster.started()
        defer { cluster.destroy() }
        let uri = try await cluster.makeDatabase()
        let container = try PersistentContainer(schema: StoreTestSchema.make(), store: .postgreSQL(uri))
        let context = container.viewContext
        let kept = TestZoo(context: context)
        kept.name = "kept"
        try context.save()
        var added: TestZoo?
        for ending in ["ended", "restarted"] {
            for kind in ["an insert", "an edit", "a deletion"] {
                if ending == "restarted" {
                    try await cluster.restart()
                } else {
                    try await cluster.runSQL(
                        "SELECT pg_terminate_backend(pid, 10000) FROM pg_stat_activity WHERE datname = '\(PostgresCluster.databaseName(uri))' AND pid <> pg_backend_pid()"
                    )
                }
                switch kind {
                case "an insert":
                    added = TestZoo(context: context)
                    added?.name = "added"
                case "an edit": kept.name = "edited"
                default: context.delete(added!)
                }
                do { try context.save() } catch { Issue.record("\(kind), its session \(ending): \(error)") }
                kept.name = "kept"
                try context.save()
            }
        }
        let reopened = try PersistentContainer(schema: StoreTestSchema.make(), store: .postgreSQL(uri))
        let names = try reopened.viewContext.fetch(FetchRequest<TestZoo>()).map(\.name)
        #expect(names == ["kept"])
    }

    /// A fault fired while the server is away reads placeholders and stays
    /// a fault; once the server is back it loads the stored values (it used
    /// to keep the placeholders as if they were the row).
    @Test func aFaultFiredWhileTheServerIsAwayLoadsWhenItIsBack() async throws {
        let cluster = try await PostgresCluster.started()
        defer { cluster.destroy() }
        let uri = try await cluster.makeDatabase()
        let a = try PersistentContainer(schema: StoreTestSchema.make(), store: .postgreSQL(uri))
        _ = try insert(["Wien"], into: a)
        let b = try PersistentContainer(schema: StoreTestSchema.make(), store: .postgreSQL(uri))
        let id = try #require(try b.viewContext.fetchIDs(FetchRequest<TestZoo>()).first)
        let zoo = b.viewContext.object(with: id, as: TestZoo.self)
        #expect(zoo.isFault)
        try await cluster.stop()
        #expect(zoo.name == "")
        #expect(zoo.isFault)
        try await cluster.start()
        #expect(await waitUntil(30) { b.viewContext.isStoreReachable && zoo.name == "Wien" }, "read \(zoo.name)")
    }

    /// A save acknowledged just before the server stops at once (a crash,
    /// as far as the server knows) is there when it starts again.
    @Test func aSaveJustBeforeAnImmediateStopIsKept() async throws {
        let cluster = try await PostgresCluster.started()
        defer { cluster.destroy() }
        let uri = try await cluster.makeDatabase()
        let saved = try insert(["Graz"], into: try PersistentContainer(schema: StoreTestSchema.make(), store: .postgreSQL(uri)))
        try await cluster.stop()
        try await cluster.start()
        let reopened = try PersistentContainer(schema: StoreTestSchema.make(), store: .postgreSQL(uri))
        #expect(Set(try reopened.viewContext.fetchIDs(FetchRequest<TestZoo>())) == saved)
    }

    @Test func aRestartedServerLosesNothing() async throws {
        let cluster = try await PostgresCluster.started()
        defer { cluster.destroy() }
        let uri = try await cluster.makeDatabase()
        let a = try PersistentContainer(schema: StoreTestSchema.make(), store: .postgreSQL(uri))
        let b = try PersistentContainer(schema: StoreTestSchema.make(), store: .postgreSQL(uri))
        let (heard, token) = listen(b)
        var saved = try insert(["one"], into: a)
        #expect(await waitUntil(20) { heard.inserted == saved })
        try await cluster.stop()
        // While the server is down a save fails, says so, and keeps the changes for later.
        let pending = TestZoo(context: a.viewContext)
        pending.name = "while down"
        #expect(throws: StoreError.self) { try a.viewContext.save() }
        #expect(a.viewContext.hasChanges)
        try await cluster.start()
        var retried = false
        for _ in 0..<50 where !retried {
            do {
                try a.viewContext.save()
                retried = true
            } catch { try await Task.sleep(for: .milliseconds(100)) }
        }
        #expect(retried)
        saved.insert(pending.objectID)
        saved.formUnion(try insert(["two"], into: a))
        #expect(await waitUntil(20) { heard.inserted == saved }, "heard \(heard.inserted.count) of \(saved.count)")
        #expect(try b.viewContext.count(for: FetchRequest<TestZoo>()) == 3)
        _ = token
    }

    /// The listening session ended over and over, by the server: each time
    /// the process listens again on its next session and watches that
    /// session's socket (never a descriptor libpq has closed and may reuse),
    /// and every save is heard. Two containers share the one listener.
    @Test func aListenerEndedAgainAndAgainListensAgainEachTime() async throws {
        let cluster = try await PostgresCluster.shared()
        let uri = try await cluster.makeDatabase()
        let database = PostgresCluster.databaseName(uri)
        let a = try PersistentContainer(schema: StoreTestSchema.make(), store: .postgreSQL(uri))
        let b = try PersistentContainer(schema: StoreTestSchema.make(), store: .postgreSQL(uri))
        let (heard, token) = listen(b)
        let listeners = "SELECT pid FROM pg_stat_activity WHERE datname = '\(database)' AND application_name LIKE '% (listener)'"
        func listening() async -> Int { ((try? await cluster.runSQL(listeners)) ?? "").split(separator: "\n").count }
        #expect(await waitUntil(20) { await listening() == 1 })
        var saved: Set<ObjectID> = []
        for round in 0..<15 {
            try await cluster.runSQL("SELECT pg_terminate_backend(pid) FROM (\(listeners)) l")
            saved.formUnion(try insert(["round \(round)"], into: a))
            #expect(await waitUntil(20) { heard.inserted == saved }, "round \(round): heard \(heard.inserted.count) of \(saved.count)")
            #expect(await waitUntil(20) { await listening() == 1 }, "round \(round): the listener came back, once")
        }
        #expect(try b.viewContext.count(for: FetchRequest<TestZoo>()) == saved.count)
        _ = token
    }
}
