import FolioPostgres
import FolioResults
import FolioStore
import FolioTestSupport
import Foundation
import Testing

/// Batch requests on a replica run on its file and wait in its outbox as
/// saves do; pushed, they meet the server's changes by the same rules.
@MainActor
@Suite struct ReplicaBatchRequestTests {
    func rows(_ container: PersistentContainer) throws -> [String] {
        try container.viewContext.fetch(FetchRequest<TestAnimal>(sortBy: [SortDescriptor(\.commonName)])).map {
            "\($0.commonName):\($0.legs):\($0.habitat)"
        }
    }

    func animal(_ name: String, legs: Int, in context: ObjectContext, _ classification: TestClassification? = nil) {
        let animal = TestAnimal(context: context)
        animal.commonName = name
        animal.legs = legs
        animal.classification = classification
    }

    @Test func batchRequestsOnAnOfflineReplicaArePushedLikeSavesAndMergedByThePolicy() async throws {
        let cluster = try await PostgresCluster.started()
        defer { cluster.destroy() }
        let uri = try await cluster.makeDatabase()
        let dir = try StoreTemporaryDirectory()
        func replica(_ name: String) throws -> PersistentContainer {
            try PersistentContainer(
                schema: StoreTestSchema.make(), store: .postgreSQL(uri, replica: dir.path(name)), syncsAutomatically: false)
        }
        let a = try replica("a.sqlite"), b = try replica("b.sqlite")
        let carnivores = TestClassification(context: a.viewContext)
        carnivores.order = "Carnivora"
        carnivores.family = "Canidae"
        for (name, legs) in [("Bat", 2), ("Crane", 2), ("Dodo", 2), ("Eel", 0)] { animal(name, legs: legs, in: a.viewContext) }
        animal("Fox", legs: 4, in: a.viewContext, carnivores)
        try a.viewContext.save()
        _ = try await a.syncNow()
        _ = try await b.syncNow()

        // Meanwhile on the server (through B): a rename, a habitat the batch also sets, an edit of a row the batch
        // deletes, and a new member of a classification the batch deletes (its cascade takes members).
        let seen = Dictionary(uniqueKeysWithValues: try b.viewContext.fetch(FetchRequest<TestAnimal>()).map { ($0.commonName, $0) })
        seen["Crane"]?.commonName = "Crane II"
        seen["Dodo"]?.habitat = "Island"
        seen["Eel"]?.habitat = "Reef"
        animal("Genet", legs: 4, in: b.viewContext, seen["Fox"]?.classification)
        try b.viewContext.save()
        #expect(try await b.syncNow().pushed == 1)

        try await cluster.stop()
        let controller = FetchedResultsController(
            fetchRequest: FetchRequest<TestAnimal>(sortBy: [SortDescriptor(\.commonName)]),
            managedObjectContext: a.viewContext, sectionNameKeyPath: nil)
        let recorder = ResultsRecordingDelegate<TestAnimal>(describe: \.commonName)
        controller.delegate = recorder
        try controller.performFetch()
        let inserted = try a.viewContext.execute(
            BatchInsertRequest<TestAnimal>(objects: [["commonName": "Gnu", "legs": 4], ["commonName": "Hare", "legs": 4]]))
        #expect(inserted.count == 2)
        var update = BatchUpdateRequest<TestAnimal>(predicate: #Predicate { $0.legs == 2 }).setting(\.habitat, to: "Cave")
        update.resultType = .count
        #expect(try a.viewContext.execute(update).count == 3)
        var delete = BatchDeleteRequest<TestAnimal>(predicate: #Predicate { $0.legs == 0 })
        delete.resultType = .count
        #expect(try a.viewContext.execute(delete).count == 1)
        var deleteOrder = BatchDeleteRequest<TestClassification>(predicate: #Predicate { $0.order == "Carnivora" })
        deleteOrder.resultType = .count
        #expect(try a.viewContext.execute(deleteOrder).count == 1)
        #expect(
            await waitUntil { controller.fetchedObjects?.map(\.commonName) == ["Bat", "Crane", "Dodo", "Gnu", "Hare"] },
            "\(recorder.lines)")
        #expect(recorder.wholeBatches.count == 4, "\(recorder.lines)")
        #expect(try rows(a) == ["Bat:2:Cave", "Crane:2:Cave", "Dodo:2:Cave", "Gnu:4:", "Hare:4:"])
        await #expect(throws: (any Error).self) { _ = try await a.syncNow() }
        #expect(a.syncStatus?.waitingChanges == 4)

        try await cluster.start()
        a.syncMergePolicy = .mergeByPropertyObjectTrump
        #expect(
            await waitUntil(60) {
                _ = try? await a.syncNow()
                return a.syncStatus?.waitingChanges == 0
            }, "\(String(describing: a.syncStatus?.state))")
        _ = try await b.syncNow()
        // The batch's keys won, the server's other keys stayed; the edited row was deleted, and the cascade took the
        // member the replica never saw.
        let expected = ["Bat:2:Cave", "Crane II:2:Cave", "Dodo:2:Cave", "Gnu:4:", "Hare:4:"]
        let server = try await cluster.runSQL(
            "SELECT string_agg(\"commonName\" || ':' || legs || ':' || habitat, ',' ORDER BY \"commonName\") FROM \"TestAnimal\"",
            database: PostgresCluster.databaseName(uri))
        #expect(server.trimmingCharacters(in: .whitespacesAndNewlines) == expected.joined(separator: ","))
        // Each context hears the pull as another process's save: it may come a moment after the sync returns.
        #expect(await waitUntil { (try? rows(a)) == expected }, "\((try? rows(a)) ?? [])")
        #expect(await waitUntil { (try? rows(b)) == expected }, "\((try? rows(b)) ?? [])")
        #expect(try b.viewContext.count(for: FetchRequest<TestClassification>()) == 0)
        #expect(
            await waitUntil { controller.fetchedObjects?.map(\.commonName) == ["Bat", "Crane II", "Dodo", "Gnu", "Hare"] },
            "\(recorder.lines)")
    }
}
