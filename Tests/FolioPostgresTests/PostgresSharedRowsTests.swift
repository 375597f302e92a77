import FolioResults
import FolioStore
import FolioTableTestSupport
import FolioTestSupport
import Foundation
import Testing

@testable import FolioPostgres

/// A process reads each row another container saved once, for all its
/// containers: the feed hub reads the rows the history names and hands them
/// on with the changes, and a container's controller places the changed
/// objects from them. What every container shows stays what a fresh fetch
/// gives, each save reported once, in batches a table accepts.
@MainActor
@Suite(.serialized) struct PostgresSharedRowsTests {
    static func controller(_ container: PersistentContainer) throws -> FetchedResultsController<TestAnimal> {
        let controller = FetchedResultsController(
            fetchRequest: FetchRequest<TestAnimal>(sortBy: [SortDescriptor(\.habitat), SortDescriptor(\.commonName)]),
            managedObjectContext: container.viewContext, sectionNameKeyPath: \TestAnimal.habitat)
        try controller.performFetch()
        return controller
    }

    final class Flag {
        var value = false
    }

    /// One save of another container, shown by eight containers' controllers:
    /// the process reads its row once (before, each controller read it: eight reads).
    /// The writer stands for another process: its URI differs, so it has a hub
    /// of its own, and its commit never lands during the readers' hub's read
    /// (rows read then are not handed on, and each container reads its own).
    @Test func aSaveCostsAProcessOneReadOfItsRowHoweverManyContainersShowIt() async throws {
        let uri = try await PostgresCluster.shared().makeDatabase()
        let writer = try PersistentContainer(schema: StoreTestSchema.make(), store: .postgreSQL(uri + "&application_name=writer"))
        let clients = try (0..<8).map { _ in try PersistentContainer(schema: StoreTestSchema.make(), store: .postgreSQL(uri)) }
        let controllers = try clients.map(Self.controller)
        let harnesses = controllers.map(ResultsTableHarness.init)
        // The feeds have read once (their catch-up) before the count starts.
        try await Task.sleep(for: .milliseconds(300))

        let before = PostgresBackend.rowReads(uri)
        let animal = TestAnimal(context: writer.viewContext)
        animal.commonName = "okapi"
        animal.habitat = "forest"
        try writer.viewContext.save()
        let id = animal.objectID
        #expect(
            await waitUntil(60) { controllers.allSatisfy { $0.fetchedObjects?.map(\.objectID) == [id] } },
            "every controller shows the save")
        let reads = PostgresBackend.rowReads(uri) - before
        #expect(reads == 1, "\(reads) reads of the saved row for \(clients.count) containers")
        for (k, harness) in harnesses.enumerated() {
            #expect(harness.tableErrors.isEmpty, "client \(k): \(harness.tableErrors)")
            let inserted = harness.batches.flatMap(\.objectChanges).filter { $0.type == .insert }
            #expect(inserted.count == 1, "client \(k) reported \(inserted.count) insertions")
        }
        // The objects the controllers show are loaded with the saved values.
        for controller in controllers {
            let shown = try #require(controller.fetchedObjects?.first)
            #expect(!shown.isFault && shown.commonName == "okapi" && shown.habitat == "forest")
        }
        withExtendedLifetime((writer, clients)) {}
    }

    /// A save of thousands of objects (as a burst of saves one hub read
    /// brings in) still costs the process one read of their rows: were
    /// they not handed on, each container would read them all itself.
    @Test func aBigSaveCostsAProcessOneReadOfItsRowsHoweverManyContainersShowThem() async throws {
        let uri = try await PostgresCluster.shared().makeDatabase()
        let writer = try PersistentContainer(schema: StoreTestSchema.make(), store: .postgreSQL(uri + "&application_name=writer"))
        let clients = try (0..<4).map { _ in try PersistentContainer(schema: StoreTestSchema.make(), store: .postgreSQL(uri)) }
        let controllers = try clients.map(Self.controller)
        try await Task.sleep(for: .milliseconds(300))

        let before = PostgresBackend.rowReads(uri)
        for i in 0..<5_000 {
            let animal = TestAnimal(context: writer.viewContext)
            animal.commonName = "animal \(i)"
            animal.habitat = "forest"
        }
        try writer.viewContext.save()
        #expect(
            await waitUntil(60) { controllers.allSatisfy { $0.fetchedObjects?.count == 5_000 } },
            "every controller shows the save")
        let reads = PostgresBackend.rowReads(uri) - before
        #expect(reads == 1, "\(reads) reads of the saved rows for \(clients.count) containers")
        withExtendedLifetime((writer, clients)) {}
    }

    /// Writers insert, rename, move between sections and delete while
    /// containers follow: each controller ends showing what a fresh fetch
    /// shows, with the objects' values as stored, each insertion reported
    /// once, and every batch accepted by its table.
    @Test func containersFollowingSavesShowWhatAFreshFetchShows() async throws {
        let seed = StoreSplitMix64.seedFromEnvironment()
        print("seed:", seed)
        var rng = StoreSplitMix64(seed: seed)
        let uri = try await PostgresCluster.shared().makeDatabase()
        let writers = try (0..<2).map { _ in try PersistentContainer(schema: StoreTestSchema.make(), store: .postgreSQL(uri)) }
        let clients = try (0..<4).map { _ in try PersistentContainer(schema: StoreTestSchema.make(), store: .postgreSQL(uri)) }
        let controllers = try clients.map(Self.controller)
        let harnesses = controllers.map(ResultsTableHarness.init)
        let habitats = ["desert", "forest", "sea", "tundra"]
        var alive: [ObjectID] = []
        for step in 0..<120 {
            let roll = rng.next() % 10
            // Both insert; one alone changes and deletes, so that it never writes over a change it has not merged.
            let writer = writers[roll < 5 ? Int(rng.next() % 2) : 0].viewContext
            if roll < 5 || alive.isEmpty {
                let animal = TestAnimal(context: writer)
                animal.commonName = "animal \(step)"
                animal.habitat = habitats[Int(rng.next() % 4)]
                try writer.save()
                alive.append(animal.objectID)
            } else {
                let index = Int(rng.next() % UInt64(alive.count))
                let animal = try #require(try writer.existingObject(with: alive[index]) as? TestAnimal)
                if roll < 8 {
                    animal.habitat = habitats[Int(rng.next() % 4)]
                    if roll == 7 { animal.commonName = "renamed \(step)" }
                } else {
                    writer.delete(animal)
                    alive.remove(at: index)
                }
                try writer.save()
            }
            if rng.next() % 8 == 0 { try await Task.sleep(for: .milliseconds(Int(rng.next() % 20))) }
        }
        let fresh = try PersistentContainer(schema: StoreTestSchema.make(), store: .postgreSQL(uri))
        func shown(_ objects: [TestAnimal]) -> [String] { objects.map { "\($0.objectID) \($0.habitat) \($0.commonName)" } }
        let expected = shown(try fresh.viewContext.fetch(controllers[0].fetchRequest))
        #expect(expected.count == alive.count)
        #expect(
            await waitUntil(60) { controllers.allSatisfy { shown($0.fetchedObjects ?? []) == expected } },
            "every controller shows what a fresh fetch shows (seed \(seed))")
        for (k, (controller, harness)) in zip(controllers, harnesses).enumerated() {
            #expect(shown(controller.fetchedObjects ?? []) == expected, "client \(k), seed \(seed)")
            #expect(harness.tableErrors.isEmpty, "client \(k): \(harness.tableErrors), seed \(seed)")
            // A move between sections is a deletion and an insertion in one batch; an insertion alone is a new object.
            var reported: [ObjectID: Int] = [:]
            for batch in harness.batches {
                let deleted = Set(batch.objectChanges.filter { $0.type == .delete }.map(\.id))
                for change in batch.objectChanges where change.type == .insert && !deleted.contains(change.id) {
                    reported[change.id, default: 0] += 1
                }
            }
            let twice = reported.filter { $0.value > 1 }
            let reports = twice.keys.map { id in
                "\(id): "
                    + harness.batches.map { $0.objectChanges.filter { $0.id == id }.map { "\($0.type)" }.joined(separator: "+") }
                    .filter { !$0.isEmpty }.joined(separator: ", ")
            }
            #expect(
                twice.isEmpty,
                "client \(k) reported new objects twice: \(reports), seed \(seed), last store error: \(String(describing: controller.lastError))"
            )
            let unreported = alive.filter { reported[$0] != 1 }
            #expect(unreported.isEmpty, "client \(k) never reported \(unreported), seed \(seed)")
        }
        withExtendedLifetime((writers, clients, fresh)) {}
    }

    /// A container saves an object another changed a moment before, while
    /// that change, with the row read for it, waits to be merged: the row
    /// is older than the container's own save (which reaches it empty), so
    /// it is not used; the container and its controller keep what it saved.
    /// Before, they took the older row and kept it.
    @Test func aRowReadBeforeAContainersOwnSaveIsNotHandedToIt() async throws {
        let uri = try await PostgresCluster.shared().makeDatabase()
        let schema = StoreTestSchema.make()
        let other = try PersistentContainer(schema: StoreTestSchema.make(), store: .postgreSQL(uri))
        let container = try PersistentContainer(schema: schema, store: .postgreSQL(uri))
        let controller = try Self.controller(container)
        let harness = ResultsTableHarness(controller: controller)
        let animal = TestAnimal(context: container.viewContext)
        animal.commonName = "okapi"
        animal.habitat = "desert"
        try container.viewContext.save()
        let id = animal.objectID
        #expect(await waitUntil(30) { controller.fetchedObjects?.count == 1 })
        let merged = Flag()
        let token = container.viewContext.observeChanges { changes in
            if changes.origin == .otherProcess && changes.updated[id] != nil { merged.value = true }
        }
        let hub = PostgresFeedHub.shared(PostgresServer(uri: uri), namespace: schema.name, busyTimeoutMilliseconds: 5000)
        func windowHasRow() -> Bool {
            hub.state.withLock { s in s.window.rows.contains { $0.values?.row(id) != nil && $0.changes.updated[id] != nil } }
        }

        // The other container's change is read, with its row, while this
        // container's merges wait (the main thread is held until it saves).
        let elsewhere = try #require(try other.viewContext.existingObject(with: id) as? TestAnimal)
        elsewhere.habitat = "forest"
        try other.viewContext.save()
        let deadline = Date().addingTimeInterval(30)
        while !windowHasRow() && Date() < deadline { usleep(1000) }
        #expect(windowHasRow(), "the hub read the other container's change with its row")
        container.viewContext.mergePolicy = .mergeByPropertyObjectTrump
        animal.habitat = "sea"
        try container.viewContext.save()

        #expect(await waitUntil(30) { merged.value }, "the other container's change was merged")
        #expect(animal.habitat == "sea", "the object took the older row")
        #expect(controller.sections?.map(\.name) == ["sea"], "\(controller.sections?.map(\.name) ?? [])")
        #expect(harness.tableErrors.isEmpty, "\(harness.tableErrors)")
        withExtendedLifetime((other, token)) {}
    }

    /// A read of this process (a replica's pull) that finds rows past the
    /// horizon joins the hub's wait for them, which grows while the horizon
    /// stays; before, each such read scheduled a reread 5 ms later.
    @Test func aPullFindingRowsPastTheHorizonJoinsTheHubsWait() async throws {
        let uri = try await PostgresCluster.shared().makeDatabase(prefix: "pending")
        let namespace = PostgresFeedRereadTests.namespace
        do { _ = try PersistentContainer(schema: ConflictTestSchema.make(), store: .postgreSQL(uri)) }
        let feed = try PostgresChangeFeed(uri: uri, namespace: namespace, reader: "pending-test")
        defer { feed.close() }
        let hub = PostgresFeedHub.shared(PostgresServer(uri: uri), namespace: namespace, busyTimeoutMilliseconds: 5000)
        let wait: UInt64 = 600_000_000_000
        hub.state.withLock { $0.pendingBackoff = (first: wait, limit: wait) }
        _ = try feed.register()
        let session = { () throws -> PGConnection in
            let c = try PGConnection(uri: uri)
            try c.execute("SET search_path TO \(namespace)")
            return c
        }
        // A history row written and not committed holds the horizon below the committed one after it.
        let held = try session(), writer = try session(), reader = try session()
        try PostgresFeedRereadTests.save(held, rowID: 1, author: "held", commit: false)
        try PostgresFeedRereadTests.save(writer, rowID: 2, author: "first")
        let key = PostgresFeedHub.Key(uri: uri, namespace: namespace)
        let wakesBefore = hub.state.withLock { $0.window.heard }
        var found = false
        for _ in 0..<3 {
            let (_, pending, _) = try PostgresHistory.readNoting(reader, after: 0, excludingAuthor: "pull", store: key)
            found = found || pending
        }
        #expect(found, "the reads found the committed row past the held one")
        // Long enough for a reread at the first step to have run (were it scheduled): none is, nor was one.
        try await Task.sleep(for: .milliseconds(200))
        let (wakes, soonest) = hub.state.withLock { ($0.window.heard - wakesBefore, $0.pendingRereadAt) }
        let now = DispatchTime.now().uptimeNanoseconds
        #expect(wakes == 0, "\(wakes) rereads ran before the wait's end")
        #expect(soonest.map { $0 > now &+ 60_000_000_000 } ?? true, "a reread is due within a minute, not at the wait's end")
        try held.execute("ROLLBACK")
    }
}
