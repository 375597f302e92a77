import FolioPostgres
import FolioResults
import FolioStore
import FolioTestSupport
import Foundation
import Testing

/// A replica (`.postgreSQL(uri, replica: path)`): an SQLite copy of the
/// server's store that saves locally, with an outbox, and syncs.
@MainActor
@Suite struct ReplicaTests: ReplicaSuite {
    let cluster: PostgresCluster
    let uri: String
    let dir: StoreTemporaryDirectory

    init() async throws {
        cluster = try await PostgresCluster.shared()
        uri = try await cluster.makeDatabase(prefix: "replica")
        dir = try StoreTemporaryDirectory()
    }

    /// What the replica file holds, read as another SQLite client would.
    func local(_ name: String, _ query: String) -> String {
        ReplicaFileQuery.rows(dir.path(name), query).map { $0.map { $0.joined(separator: "|") }.joined(separator: ",") } ?? "cannot read"
    }

    func animal(_ name: String, in context: ObjectContext, legs: Int = 4) -> TestAnimal {
        let a = TestAnimal(context: context)
        a.commonName = name
        a.legs = legs
        return a
    }

    @Test func aFirstSyncCopiesTheServerAndSavesGoThroughTheOutbox() async throws {
        let online = try PersistentContainer(schema: StoreTestSchema.make(), store: .postgreSQL(uri))
        let okapi = animal("Okapi", in: online.viewContext)
        try online.viewContext.save()

        let container = try replica("a.sqlite")
        let copied = try container.viewContext.fetch(FetchRequest<TestAnimal>())
        #expect(copied.map(\.commonName) == ["Okapi"])
        #expect(container.syncStatus != nil && online.syncStatus == nil)

        let tapir = animal("Tapir", in: container.viewContext)
        copied[0].legs = 5
        try container.viewContext.save()
        // The save's ID is in the replica's own range, far above the server's.
        #expect(tapir.objectID.rowID >= 1 << 40)
        _ = try await container.syncNow()
        #expect(local("a.sqlite", "SELECT count(*) FROM folio_history WHERE outbox IS NOT NULL") == "0")
        #expect(try await sql("SELECT string_agg(\"commonName\" || ':' || legs, ',' ORDER BY id) FROM \"TestAnimal\"") == "Okapi:5,Tapir:4")
        // The push wrote the server's history: an ordinary client hears it as another machine's save.
        #expect(await waitUntil { okapi.legs == 5 })
        #expect(
            local("a.sqlite", "SELECT version || ':' || pending FROM folio_replica_rows WHERE entity = 'TestAnimal' ORDER BY id")
                == "2:0,1:0")
        #expect(await waitUntil { container.syncStatus?.waitingChanges == 0 && container.syncStatus?.lastSynced != nil })
    }

    @Test func twoReplicasConvergeAndAPulledSaveReachesAControllerAsOneReport() async throws {
        let a = try replica("a.sqlite"), b = try replica("b.sqlite")
        let controller = FetchedResultsController(
            fetchRequest: FetchRequest<TestAnimal>(sortBy: [SortDescriptor(\.commonName)]),
            managedObjectContext: b.viewContext, sectionNameKeyPath: nil)
        let recorder = ResultsRecordingDelegate<TestAnimal>(describe: \.commonName)
        controller.delegate = recorder
        try controller.performFetch()
        for name in ["Bison", "Dingo", "Fossa"] { _ = animal(name, in: a.viewContext) }
        try a.viewContext.save()
        _ = try await a.syncNow()
        _ = try await b.syncNow()
        #expect(await waitUntil { controller.fetchedObjects?.map(\.commonName) == ["Bison", "Dingo", "Fossa"] })
        #expect(recorder.wholeBatches.count == 1, "\(recorder.lines)")
        recorder.reset()

        // One save on A: an insert, a rename that moves a row, a delete.
        let mine = try a.viewContext.fetch(FetchRequest<TestAnimal>(sortBy: [SortDescriptor(\.commonName)]))
        _ = animal("Civet", in: a.viewContext)
        mine[0].commonName = "Zebu"
        a.viewContext.delete(mine[1])
        try a.viewContext.save()
        _ = try await a.syncNow()
        let report = try await b.syncNow()
        #expect(report.pulled == 1 && report.pushed == 0)
        #expect(
            await waitUntil { controller.fetchedObjects?.map(\.commonName) == ["Civet", "Fossa", "Zebu"] },
            "\(controller.fetchedObjects?.map(\.commonName) ?? [])")
        #expect(recorder.wholeBatches.count == 1, "\(recorder.lines)")
        #expect(recorder.lines.first == "will" && recorder.lines.last == "did" && recorder.lines.count == 5, "\(recorder.lines)")
        #expect(
            recorder.lines.contains("delete Dingo [0, 1]") && recorder.lines.contains("insert Civet [0, 0]")
                && recorder.lines.contains { $0.hasPrefix("move Zebu [0, 0] -> ") }, "\(recorder.lines)")
    }

    @Test func aConflictingEditIsResolvedByThePolicyPropertyByProperty() async throws {
        let a = try replica("a.sqlite"), b = try replica("b.sqlite")
        a.syncMergePolicy = .mergeByPropertyObjectTrump
        b.syncMergePolicy = .mergeByPropertyObjectTrump
        let shared = animal("Serval", in: a.viewContext)
        try a.viewContext.save()
        _ = try await a.syncNow()
        _ = try await b.syncNow()
        let theirs = try #require(try b.viewContext.existingObject(with: shared.objectID) as? TestAnimal)
        // Both edit before either syncs: legs on both sides, habitat on B only.
        shared.legs = 3
        try a.viewContext.save()
        theirs.legs = 5
        theirs.habitat = "Savanna"
        try b.viewContext.save()
        _ = try await a.syncNow()
        let pushed = try await b.syncNow()
        #expect(pushed.unsettled.isEmpty)
        _ = try await a.syncNow()
        // B pushed last, over A's legs: its object trumps for the key both changed.
        #expect(try await sql("SELECT legs || ':' || habitat FROM \"TestAnimal\"") == "5:Savanna")
        #expect(await waitUntil { shared.legs == 5 && shared.habitat == "Savanna" }, "A shows \(shared.legs):\(shared.habitat)")
        #expect(theirs.legs == 5 && theirs.habitat == "Savanna")
    }

    @Test func withTheErrorPolicyAConflictWaitsAndIsListed() async throws {
        let a = try replica("a.sqlite"), b = try replica("b.sqlite")
        let shared = animal("Margay", in: a.viewContext)
        try a.viewContext.save()
        _ = try await a.syncNow()
        _ = try await b.syncNow()
        let theirs = try #require(try b.viewContext.existingObject(with: shared.objectID) as? TestAnimal)
        shared.legs = 3
        try a.viewContext.save()
        theirs.legs = 5
        try b.viewContext.save()
        _ = try await a.syncNow()
        let report = try await b.syncNow()
        let expected = SaveConflict(
            entity: "TestAnimal", id: shared.objectID.rowID, kind: .changed,
            keys: [.init(key: "legs", stored: .integer(3), context: .integer(5))])
        #expect(report.unsettled == [expected] && report.waiting == 1)
        #expect(await waitUntil { b.syncStatus?.conflicts == [expected] })
        #expect(try await sql("SELECT legs FROM \"TestAnimal\"") == "3")
        // The app settles it by choosing a policy: the waiting save goes through.
        b.syncMergePolicy = .mergeByPropertyObjectTrump
        let settled = try await b.syncNow()
        #expect(settled.unsettled.isEmpty && settled.waiting == 0)
        #expect(try await sql("SELECT legs FROM \"TestAnimal\"") == "5")
    }

    /// Several waiting saves of one object: each is pushed on the version
    /// the one before it left, so none meets a conflict of its own making;
    /// another replica's edit in between is still caught.
    @Test func waitingSavesOfOneObjectArePushedOneOnAnother() async throws {
        let a = try replica("a.sqlite"), b = try replica("b.sqlite")
        let x = animal("Pika", in: a.viewContext)
        try a.viewContext.save()
        for legs in [5, 6, 7] {
            x.legs = legs
            try a.viewContext.save()
        }
        x.habitat = "Scree"
        try a.viewContext.save()
        let first = try await a.syncNow()
        #expect(first.pushed == 5 && first.unsettled.isEmpty && first.waiting == 0)
        #expect(try await sql("SELECT legs || ':' || habitat || ':' || folio_version FROM \"TestAnimal\"") == "7:Scree:5")
        _ = try await b.syncNow()
        let theirs = try #require(try b.viewContext.existingObject(with: x.objectID) as? TestAnimal)
        theirs.legs = 8
        try b.viewContext.save()
        x.legs = 9
        try a.viewContext.save()
        x.habitat = "Talus"
        try a.viewContext.save()
        _ = try await b.syncNow()
        let second = try await a.syncNow()
        #expect(second.pushed == 0 && second.unsettled.map(\.keys) == [[.init(key: "legs", stored: .integer(8), context: .integer(9))]])
        a.syncMergePolicy = .mergeByPropertyStoreTrump
        let third = try await a.syncNow()
        #expect(third.pushed == 2 && third.waiting == 0)
        #expect(try await sql("SELECT legs || ':' || habitat FROM \"TestAnimal\"") == "8:Talus")
        #expect(await waitUntil { x.legs == 8 && x.habitat == "Talus" }, "A shows \(x.legs):\(x.habitat)")
    }

    /// Two containers on one replica file: both save through the outbox,
    /// one syncs, and each hears the other's saves and the pulled ones.
    @Test func twoContainersOnOneReplicaShareItsSync() async throws {
        let first = try replica("a.sqlite"), second = try replica("a.sqlite")
        let other = try replica("b.sqlite")
        _ = animal("Tenrec", in: first.viewContext)
        try first.viewContext.save()
        _ = animal("Urial", in: second.viewContext)
        try second.viewContext.save()
        let reports = [try await first.syncNow(), try await second.syncNow()]
        #expect(reports.map(\.pushed).reduce(0, +) == 2 && reports.contains { $0.problem == "another container syncs this replica" })
        _ = animal("Vicuna", in: other.viewContext)
        try other.viewContext.save()
        _ = try await other.syncNow()
        _ = try await first.syncNow()
        _ = try await second.syncNow()
        for container in [first, second] {
            #expect(
                await waitUntil {
                    (try? container.viewContext.fetch(FetchRequest<TestAnimal>(sortBy: [SortDescriptor(\.commonName)])).map(\.commonName))
                        == ["Tenrec", "Urial", "Vicuna"]
                })
        }
        #expect(try await sql("SELECT count(*) FROM \"TestAnimal\"") == "3")
    }

    @Test func idsOfReplicasAndOrdinaryClientsNeverClash() async throws {
        let a = try replica("a.sqlite"), b = try replica("b.sqlite")
        let online = try PersistentContainer(schema: StoreTestSchema.make(), store: .postgreSQL(uri))
        var ids: [Int64] = []
        for container in [a, b, online] {
            let made = (0..<3).map { animal("Kit \($0)", in: container.viewContext) }
            try container.viewContext.save()
            ids += made.map(\.objectID.rowID)
        }
        #expect(Set(ids).count == 9)
        #expect(ids[6..<9].allSatisfy { $0 < 1 << 40 })
        #expect(Set(ids[0..<3].map { $0 >> 40 }).count == 1 && Set(ids[3..<6].map { $0 >> 40 }).count == 1)
        #expect(ids[0] >> 40 != ids[3] >> 40)
        _ = try await a.syncNow()
        _ = try await b.syncNow()
        _ = try await a.syncNow()
        // An ordinary client goes on below the replicas' ranges.
        let next = animal("Kit 9", in: online.viewContext)
        try online.viewContext.save()
        #expect(next.objectID.rowID == ids[8] + 1)
        #expect(try await sql("SELECT count(*) FROM \"TestAnimal\"") == "10")
        _ = try await a.syncNow()
        #expect(await waitUntil { (try? a.viewContext.count(for: FetchRequest<TestAnimal>())) == 10 })
    }

    @Test func aReplicaOfAnotherSchemaVersionOrOpenedAsAPlainFileIsRefused() async throws {
        do { _ = try replica("a.sqlite") }
        #expect(
            throws: StoreError.otherSchema(
                path: dir.path("a.sqlite"), stored: "schema version 1 (a replica)",
                expected: "schema version 2")
        ) { _ = try replica("a.sqlite", version: 2) }
        #expect { _ = try PersistentContainer(schema: StoreTestSchema.make(), path: dir.path("a.sqlite")) } throws: { error in
            guard case StoreError.cannotOpen(_, let message) = error else { return false }
            return message.contains("replica")
        }
        // Read-only, it opens as any store.
        _ = try PersistentContainer(schema: StoreTestSchema.make(), path: dir.path("a.sqlite"), readOnly: true)
    }
}
