// Only FolioStore, as a Core Data user imports only CoreData: Foundation's
// SortDescriptor and #Predicate come with it, and isFault is public.
import FolioStore
import FolioTestSupport
import Testing

@MainActor
@Suite struct CoreDataShapeTests {
    @Test func importingTheStoreBringsFoundationsSortsAndPredicates() throws {
        let container = try PersistentContainer(schema: StoreTestSchema.make(), path: nil)
        for name in ["Okapi", "Aardvark", "Zebra"] {
            TestAnimal(context: container.viewContext).commonName = name
        }
        try container.viewContext.save()
        var request = FetchRequest<TestAnimal>(sortBy: [SortDescriptor(\TestAnimal.commonName)])
        request.predicate = #Predicate<TestAnimal> { $0.commonName != "Zebra" }
        let names = try container.viewContext.fetch(request).map(\.commonName)
        #expect(names == ["Aardvark", "Okapi"])
    }

    @Test func aRefreshedObjectIsAFaultUntilAPropertyIsRead() throws {
        let container = try PersistentContainer(schema: StoreTestSchema.make(), path: nil)
        let context = container.viewContext
        let okapi = TestAnimal(context: context)
        okapi.commonName = "Okapi"
        #expect(!okapi.isFault)
        try context.save()

        context.refresh(okapi, mergeChanges: false)
        #expect(okapi.isFault)
        #expect(okapi.commonName == "Okapi")
        #expect(!okapi.isFault)
    }

    @Test func fetchGivesAnArrayWhereOneIsWanted() throws {
        let container = try PersistentContainer(schema: StoreTestSchema.make(), path: nil)
        for name in ["Okapi", "Aardvark", "Zebra"] {
            TestAnimal(context: container.viewContext).commonName = name
        }
        try container.viewContext.save()
        var request = FetchRequest<TestAnimal>(sortBy: [SortDescriptor(\TestAnimal.commonName)])
        request.fetchBatchSize = 2
        var animals: [TestAnimal] = []
        animals = try container.viewContext.fetch(request)
        #expect(animals.map(\.commonName) == ["Aardvark", "Okapi", "Zebra"])
        let batched = try container.viewContext.fetch(request)
        #expect(batched.ids.count == 3)  // without an array wanted, the batched collection
    }
}
