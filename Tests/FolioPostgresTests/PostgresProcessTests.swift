import CLibPQ
import FolioPostgres
import FolioResults
import FolioStore
import FolioTestSupport
import Foundation
import Testing

/// Several processes ("machines") on one server, and the server's faults
/// under them: every controller converges, nothing acknowledged is lost,
/// nothing is missed across a restart or an ended listener, a reader left
/// behind past the history it needed reloads once, a statement that waits
/// too long fails with a clear error.
@MainActor
@Suite(.serialized) struct PostgresProcessTests {
    let worker = StoreChildProcess.sibling("folio-store-worker")

    func insert(_ name: String, into container: PersistentContainer) throws -> ObjectID {
        let animal = TestAnimal(context: container.viewContext)
        animal.commonName = name
        try container.viewContext.save()
        return animal.objectID
    }

    /// Saves, retrying while the server is away; the changes stay in the context until a save succeeds.
    func saveRetrying(_ context: ObjectContext) async throws {
        let deadline = Date().addingTimeInterval(60)
        while true {
            do { return try context.save() } catch let error as StoreError {
                guard case .offline = error, Date() < deadline else { throw error }
                try await Task.sleep(for: .milliseconds(50))
            }
        }
    }

    @Test func severalProcessesSaveAndEveryControllerConverges() async throws {
        let seed = StoreSplitMix64.seedFromEnvironment()
        print("seed:", seed)
        let uri = try await PostgresCluster.shared().makeDatabase()
        let container = try PersistentContainer(schema: StoreTestSchema.make(), store: .postgreSQL(uri))
        let controller = FetchedResultsController(
            fetchRequest: FetchRequest<TestAnimal>(sortBy: [SortDescriptor(\.commonName)]),
            managedObjectContext: container.viewContext, sectionNameKeyPath: nil)
        try controller.performFetch()
        let harness = ResultsTableHarness(controller: controller)
        let perWorker = 20, mine = 10, workers = 3
        let total = perWorker * workers + mine
        let children = try (0..<workers).map { i in
            try StoreChildProcess(executable: worker, arguments: ["converge", uri, "\(seed &+ UInt64(i))", "\(perWorker)", "\(total)"])
        }
        for i in 0..<mine {
            _ = try insert("test-\(i)", into: container)
            try await Task.sleep(for: .milliseconds(5))
        }
        for (i, child) in children.enumerated() {
            #expect(await child.waitForLine { $0 == "saved all" } != nil, "worker \(i) did not save: \(child.lines.suffix(3).map(\.line))")
        }
        #expect(
            await waitUntil(60) { controller.fetchedObjects?.count == total }, "shown \(controller.fetchedObjects?.count ?? 0) of \(total)")
        let shown = (controller.fetchedObjects ?? []).map(\.commonName).joined(separator: ",")
        #expect(try container.viewContext.fetch(controller.fetchRequest).map(\.commonName).joined(separator: ",") == shown)
        #expect(harness.tableErrors.isEmpty, "\(harness.tableErrors)")
        #expect(harness.table.numberOfRows(inSection: 0) == total)
        for child in children { child.closeInput() }
        for (i, child) in children.enumerated() {
            let converged = await child.waitForLine { $0.hasPrefix("fetched ") }
            #expect(converged != nil, "worker \(i) did not finish: \(child.lines.suffix(3).map(\.line))")
            #expect(child.lines.contains { $0.line == "converged " + shown }, "worker \(i)'s controller shows other rows")
            #expect(child.lines.contains { $0.line == "fetched " + shown }, "worker \(i)'s fetch gives other rows")
            await child.finish()
        }
    }

    /// A restart (`pg_ctl restart`) while one process saves and another
    /// listens: saves fail visibly while it is down and go through after;
    /// the listener misses none of them.
    @Test func aRestartMidSessionMissesNothing() async throws {
        let cluster = try await PostgresCluster.started()
        defer { cluster.destroy() }
        let uri = try await cluster.makeDatabase()
        let a = try PersistentContainer(schema: StoreTestSchema.make(), store: .postgreSQL(uri))
        let b = try PersistentContainer(schema: StoreTestSchema.make(), store: .postgreSQL(uri))
        var heard: Set<ObjectID> = []
        let token = b.viewContext.observeChanges { changes in
            if changes.origin == .otherProcess { heard.formUnion(changes.inserted) }
        }
        var saved: Set<ObjectID> = []
        for i in 0..<40 {
            if i == 15 { try await cluster.restart() }
            let animal = TestAnimal(context: a.viewContext)
            animal.commonName = "animal \(i)"
            try await saveRetrying(a.viewContext)
            saved.insert(animal.objectID)
        }
        #expect(await waitUntil(30) { heard == saved }, "heard \(heard.count) of \(saved.count)")
        #expect(try b.viewContext.count(for: FetchRequest<TestAnimal>()) == saved.count)
        withExtendedLifetime(token) {}
    }

    /// Only the listening connection ends (`pg_terminate_backend`): the
    /// feeds notice, the process listens again and they read what was saved meanwhile.
    @Test func anEndedListenerReconnectsAndCatchesUp() async throws {
        let cluster = try await PostgresCluster.shared()
        let uri = try await cluster.makeDatabase()
        let database = PostgresCluster.databaseName(uri)
        let a = try PersistentContainer(schema: StoreTestSchema.make(), store: .postgreSQL(uri))
        let b = try PersistentContainer(schema: StoreTestSchema.make(), store: .postgreSQL(uri))
        var heard: Set<ObjectID> = []
        let token = b.viewContext.observeChanges { changes in
            if changes.origin == .otherProcess { heard.formUnion(changes.inserted) }
        }
        var saved: Set<ObjectID> = [try insert("first", into: a)]
        #expect(await waitUntil(20) { heard == saved })
        let listeners = "SELECT pid FROM pg_stat_activity WHERE datname = '\(database)' AND application_name LIKE '% (listener)'"
        func listening() async -> Int { ((try? await cluster.runSQL(listeners)) ?? "").split(separator: "\n").count }
        let before = try await cluster.runSQL(listeners).split(separator: "\n")
        #expect(before.count == 1, "one listener for the process's two containers: \(before)")
        // End the listening connections only; the readers and writers stay.
        try await cluster.runSQL("SELECT pg_terminate_backend(pid) FROM (\(listeners)) l")
        for i in 0..<10 { saved.insert(try insert("after \(i)", into: a)) }
        #expect(await waitUntil(30) { heard == saved }, "heard \(heard.count) of \(saved.count)")
        // The feeds see the session end and their next statements reconnect it, listening again.
        #expect(await waitUntil(30) { await listening() == 1 }, "the listener came back, once")
        withExtendedLifetime(token) {}
    }

    /// A reader stopped past the silence limit is dropped and its history
    /// trimmed; when it continues it reloads once and hears later saves.
    @Test func aReaderLeftBehindReloadsOnceThenHearsLaterSaves() async throws {
        let cluster = try await PostgresCluster.shared()
        let uri = try await cluster.makeDatabase()
        let database = PostgresCluster.databaseName(uri)
        func count(_ table: String) async -> Int {
            Int(
                (try? await cluster.runSQL("SELECT count(*) FROM \(table)", database: database))?
                    .trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? -1
        }
        let mine = try PersistentContainer(schema: StoreTestSchema.make(), store: .postgreSQL(uri))
        mine.setReaderSilenceLimit(1.5)
        _ = try insert("Seed", into: mine)
        let child = try StoreChildProcess(executable: worker, arguments: ["watch", uri, "1.5"])
        #expect(await child.waitForLine { $0 == "ready" } != nil)
        #expect(await waitUntil { await count("folio_readers") == 2 }, "the child registered as a reader")
        #expect(await child.suspend(), "the child did not stop")
        let missed = try insert("Missed", into: mine)
        try await Task.sleep(for: .milliseconds(2000))
        let alsoMissed = try insert("Also missed", into: mine)
        mine.checkForExternalChanges()
        var left = (history: -1, readers: -1)
        #expect(
            await waitUntil {
                left = (await count("folio_history"), await count("folio_readers"))
                return left == (0, 1)
            }, "history \(left.history), readers \(left.readers) after the trim")
        child.resume()
        #expect(await child.waitForLine { $0 == "reload" } != nil, "the reader learnt it missed saves: \(child.lines.map(\.line))")
        let later = try insert("Later", into: mine)
        #expect(await child.waitForLine { $0 == "heard \(later)" } != nil, "a later save is heard: \(child.lines.map(\.line))")
        let lines = child.lines.map(\.line)
        #expect(lines.filter { $0 == "reload" }.count == 1, "one reload: \(lines)")
        // A read the child sent just before it stopped may run after "Missed" committed and bring it
        // before the reload; after the reload nothing trimmed is heard.
        let afterReload = lines.drop { $0 != "reload" }
        #expect(
            !afterReload.contains("heard \(missed)") && !afterReload.contains("heard \(alsoMissed)"), "a trimmed save was heard: \(lines)")
        await child.finish()
    }

    /// A fetch that waits on a lock longer than the statement timeout fails
    /// with an error naming the server, and the store works after it.
    @Test func aStatementTimeoutIsAClearError() async throws {
        let cluster = try await PostgresCluster.shared()
        let uri = try await cluster.makeDatabase()
        _ = try insert("Okapi", into: try PersistentContainer(schema: StoreTestSchema.make(), store: .postgreSQL(uri)))
        let timed = uri + "&options=-c%20statement_timeout%3D300"
        let container = try PersistentContainer(schema: StoreTestSchema.make(), store: .postgreSQL(timed))
        let holder = try #require(PQconnectdb(uri))
        defer { PQfinish(holder) }
        #expect(PQstatus(holder) == CONNECTION_OK)
        PQclear(PQexec(holder, "BEGIN; LOCK TABLE \"TestAnimal\" IN ACCESS EXCLUSIVE MODE"))
        #expect(throws: StoreError.self) { try container.viewContext.count(for: FetchRequest<TestAnimal>()) }
        do { _ = try container.viewContext.count(for: FetchRequest<TestAnimal>()) } catch let error as StoreError {
            guard case .timedOut(let store) = error else { Issue.record("expected a time-out, got \(error)"); return }
            #expect(store.contains(cluster.socketDirectory))
            #expect(error.description.contains(store))
        }
        PQclear(PQexec(holder, "ROLLBACK"))
        #expect(try container.viewContext.count(for: FetchRequest<TestAnimal>()) == 1)
    }
}
