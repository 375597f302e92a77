import FolioPostgres
import FolioResults
import FolioStore
import FolioTestSupport
import Foundation
import Testing

/// Replicas that changed the same store apart end up with the server's
/// state: relationships, deletions against edits under each policy, and a
/// replica that fell behind the server's trimmed history.
@MainActor
@Suite struct ReplicaConvergenceTests: ReplicaSuite {
    let cluster: PostgresCluster
    let uri: String
    let dir: StoreTemporaryDirectory

    init() async throws {
        cluster = try await PostgresCluster.shared()
        uri = try await cluster.makeDatabase(prefix: "converge")
        dir = try StoreTemporaryDirectory()
    }

    func object<T: ManagedObject>(_ id: ObjectID, in container: PersistentContainer, as: T.Type) throws -> T {
        try #require(try container.viewContext.existingObject(with: id) as? T)
    }

    /// Each replica's view of the relationships, in one line, for comparing them.
    func shape(_ container: PersistentContainer) throws -> String {
        let context = container.viewContext
        context.refreshAllObjects()
        let animals = try context.fetch(FetchRequest<TestAnimal>(sortBy: [SortDescriptor(\.commonName)]))
        let zoos = try context.fetch(FetchRequest<TestZoo>(sortBy: [SortDescriptor(\.name)]))
        let guides = try context.fetch(FetchRequest<TestGuide>(sortBy: [SortDescriptor(\.title)]))
        return animals.map { "\($0.commonName):\($0.classification?.order ?? "-")" }.joined(separator: ",") + " | "
            + zoos.map { "\($0.name):\($0.animals.map(\.commonName).sorted().joined(separator: "+"))" }.joined(separator: ",") + " | "
            + guides.map { "\($0.title):\($0.steps.map(\.label).joined(separator: ">"))" }.joined(separator: ",")
    }

    @Test func relationshipChangesOnTwoReplicasConverge() async throws {
        let a = try replica("a.sqlite"), b = try replica("b.sqlite")
        let ctx = a.viewContext
        let cats = TestClassification(context: ctx), dogs = TestClassification(context: ctx)
        cats.order = "Carnivora-cats"; cats.family = "Felidae"
        dogs.order = "Carnivora-dogs"; dogs.family = "Canidae"
        let zoo = TestZoo(context: ctx)
        zoo.name = "Lowry"
        let x = TestAnimal(context: ctx), y = TestAnimal(context: ctx)
        x.commonName = "Xerus"; x.classification = cats
        y.commonName = "Yak"; y.classification = cats
        zoo.animals = [x, y]
        let guide = TestGuide(context: ctx)
        guide.title = "Feeding"
        for label in ["one", "two", "three"] {
            let step = TestStep(context: ctx)
            step.label = label
            guide.steps.append(step)
        }
        try ctx.save()
        _ = try await a.syncNow()
        _ = try await b.syncNow()
        #expect(try shape(b) == shape(a))

        // B moves Xerus to the dogs, takes Yak out of the zoo and reorders the guide;
        // A adds an animal to the zoo and to the cats.
        let bx = try object(x.objectID, in: b, as: TestAnimal.self)
        bx.classification = try object(dogs.objectID, in: b, as: TestClassification.self)
        let bzoo = try object(zoo.objectID, in: b, as: TestZoo.self)
        bzoo.animals.remove(try object(y.objectID, in: b, as: TestAnimal.self))
        let bguide = try object(guide.objectID, in: b, as: TestGuide.self)
        bguide.steps = bguide.steps.reversed()
        try b.viewContext.save()
        let w = TestAnimal(context: ctx)
        w.commonName = "Wolverine"
        w.classification = cats
        zoo.animals.insert(w)
        try ctx.save()

        _ = try await b.syncNow()
        _ = try await a.syncNow()
        _ = try await b.syncNow()
        let expected = "Wolverine:Carnivora-cats,Xerus:Carnivora-dogs,Yak:Carnivora-cats | Lowry:Wolverine+Xerus | Feeding:three>two>one"
        #expect(await waitUntil { (try? shape(a)) == expected }, "\((try? shape(a)) ?? "")")
        #expect(await waitUntil { (try? shape(b)) == expected }, "\((try? shape(b)) ?? "")")
        let online = try PersistentContainer(schema: StoreTestSchema.make(), store: .postgreSQL(uri))
        #expect(try shape(online) == expected)
    }

    @Test func anEditOfAnObjectDeletedElsewhereIsDroppedAndTheObjectGoes() async throws {
        let a = try replica("a.sqlite"), b = try replica("b.sqlite", policy: .mergeByPropertyStoreTrump)
        let x = TestAnimal(context: a.viewContext)
        x.commonName = "Quokka"
        try a.viewContext.save()
        _ = try await a.syncNow()
        _ = try await b.syncNow()
        let bx = try object(x.objectID, in: b, as: TestAnimal.self)
        a.viewContext.delete(x)
        try a.viewContext.save()
        bx.legs = 2
        try b.viewContext.save()
        _ = try await a.syncNow()
        let report = try await b.syncNow()
        #expect(report.unsettled.isEmpty && report.waiting == 0)
        #expect(try await sql("SELECT count(*) FROM \"TestAnimal\"") == "0")
        #expect(await waitUntil { (try? b.viewContext.count(for: FetchRequest<TestAnimal>())) == 0 })
    }

    @Test func aDeletionOfAnObjectChangedElsewhereFollowsThePolicy() async throws {
        for (policy, survives) in [(MergePolicy.mergeByPropertyStoreTrump, true), (.mergeByPropertyObjectTrump, false)] {
            let a = try replica("a-\(survives).sqlite"), b = try replica("b-\(survives).sqlite", policy: policy)
            let x = TestAnimal(context: a.viewContext)
            x.commonName = "Numbat \(survives)"
            try a.viewContext.save()
            _ = try await a.syncNow()
            _ = try await b.syncNow()
            b.viewContext.delete(try object(x.objectID, in: b, as: TestAnimal.self))
            try b.viewContext.save()
            x.legs = 3
            try a.viewContext.save()
            _ = try await a.syncNow()
            let report = try await b.syncNow()
            #expect(report.unsettled.isEmpty && report.waiting == 0, "\(policy)")
            _ = try await a.syncNow()
            let onServer = try await sql("SELECT count(*) FROM \"TestAnimal\" WHERE id = \(x.objectID.rowID)")
            #expect(onServer == (survives ? "1" : "0"), "\(policy)")
            let name = x.commonName
            let legs = survives ? [3] : []
            let request = FetchRequest<TestAnimal>(predicate: #Predicate { $0.commonName == name })
            #expect(await waitUntil { (try? b.viewContext.fetch(request).map(\.legs)) == legs }, "\(policy): B")
            #expect(
                await waitUntil { (try? a.viewContext.fetch(request).map(\.legs)) == legs },
                "\(policy): A has \((try? a.viewContext.fetch(request).map(\.legs)) ?? [])")
        }
    }

    @Test func aReplicaBehindTheTrimmedHistoryReadsTheStoreAgainKeepsItsSavesAndReloadsOnce() async throws {
        let a = try replica("a.sqlite"), b = try replica("b.sqlite")
        let genet = TestAnimal(context: a.viewContext)
        genet.commonName = "Genet"
        try a.viewContext.save()
        _ = try await a.syncNow()
        let controller = FetchedResultsController(
            fetchRequest: FetchRequest<TestAnimal>(sortBy: [SortDescriptor(\.commonName)]),
            managedObjectContext: b.viewContext, sectionNameKeyPath: nil)
        let recorder = ResultsRecordingDelegate<TestAnimal>(describe: \.commonName)
        controller.delegate = recorder
        try controller.performFetch()
        _ = try await b.syncNow()
        #expect(await waitUntil { controller.fetchedObjects?.count == 1 })

        // B saves while A saves twice; then the server trims all its history, as for a replica silent too long.
        let hyrax = TestAnimal(context: b.viewContext)
        hyrax.commonName = "Hyrax"
        try b.viewContext.save()
        #expect(await waitUntil { controller.fetchedObjects?.count == 2 })
        for name in ["Ibex", "Jerboa"] {
            TestAnimal(context: a.viewContext).commonName = name
            try a.viewContext.save()
        }
        genet.legs = 3
        try a.viewContext.save()
        _ = try await a.syncNow()
        try await sql(
            """
            INSERT INTO folio_metadata (key, value) SELECT 'history_trimmed_through', max(position)::text FROM folio_history
            ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value;
            DELETE FROM folio_history
            """)
        recorder.reset()
        _ = try await b.syncNow()
        #expect(
            await waitUntil { controller.fetchedObjects?.map(\.commonName) == ["Genet", "Hyrax", "Ibex", "Jerboa"] },
            "\(controller.fetchedObjects?.map(\.commonName) ?? [])")
        #expect(recorder.wholeBatches.count == 1 && recorder.lines.contains("delete section 0 ''"), "\(recorder.lines)")
        #expect(controller.fetchedObjects?.first?.legs == 3)
        #expect(
            try await sql("SELECT string_agg(\"commonName\", ',' ORDER BY \"commonName\") FROM \"TestAnimal\"") == "Genet,Hyrax,Ibex,Jerboa"
        )
    }
}
