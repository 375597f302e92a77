import FolioStore
import FolioTestSupport
import Foundation
import Testing

@MainActor
@Suite struct BasicTests {
    @Test func insertSaveFetchInMemory() throws {
        let container = try PersistentContainer(schema: StoreTestSchema.make(), path: nil)
        let context = container.viewContext
        let zoo = TestZoo(context: context)
        zoo.name = "San Diego Zoo"
        #expect(zoo.objectID.isTemporary)
        #expect(context.hasChanges)
        try context.save()
        #expect(!zoo.objectID.isTemporary)
        #expect(!context.hasChanges)
        let zoos = try context.fetch(FetchRequest<TestZoo>())
        #expect(zoos.count == 1)
        #expect(zoos.first === zoo)
        #expect(zoos.first?.name == "San Diego Zoo")
    }

    @Test func fileStoreRoundTripsEveryAttributeType() throws {
        let dir = try StoreTemporaryDirectory()
        let path = dir.path("items.sqlite")
        let when = Date(timeIntervalSince1970: 1_700_000_000.5)
        let uuid = UUID()
        do {
            let container = try PersistentContainer(schema: StoreTestSchema.make(), path: path)
            let item = TestItem(context: container.viewContext)
            item.text = "héllo"
            item.count = -3
            item.big = Int64.max
            item.ratio = 2.5
            item.flag = true
            item.when = when
            item.bytes = Data([0, 1, 2, 255])
            item.uuid = uuid
            item.note = nil
            item.score = 9.75
            item.point = TestPoint(x: 1, y: -2)
            try container.viewContext.save()
        }
        let container = try PersistentContainer(schema: StoreTestSchema.make(), path: path)
        let items = try container.viewContext.fetch(FetchRequest<TestItem>())
        let item = try #require(items.first)
        #expect(item.text == "héllo")
        #expect(item.count == -3)
        #expect(item.big == Int64.max)
        #expect(item.ratio == 2.5)
        #expect(item.flag)
        #expect(item.when == when)
        #expect(item.bytes == Data([0, 1, 2, 255]))
        #expect(item.uuid == uuid)
        #expect(item.note == nil)
        #expect(item.score == 9.75)
        #expect(item.point == TestPoint(x: 1, y: -2))
    }

    @Test func predicateSortLimitOffsetCount() throws {
        let container = try PersistentContainer(schema: StoreTestSchema.make(), path: nil)
        let context = container.viewContext
        for (i, name) in ["Mercury", "Venus", "Earth", "Mars", "Jupiter"].enumerated() {
            let a = TestAnimal(context: context)
            a.commonName = name
            a.legs = i
        }
        try context.save()
        var request = FetchRequest<TestAnimal>(
            predicate: #Predicate { $0.legs >= 1 && $0.commonName != "Mars" },
            sortBy: [SortDescriptor(\.commonName)])
        #expect(try context.fetch(request).map(\.commonName) == ["Earth", "Jupiter", "Venus"])
        #expect(try context.count(for: request) == 3)
        request.fetchOffset = 1
        request.fetchLimit = 1
        #expect(try context.fetch(request).map(\.commonName) == ["Jupiter"])
        #expect(try context.count(for: request) == 1)
        let starts = FetchRequest<TestAnimal>(
            predicate: #Predicate { $0.commonName.starts(with: "M") },
            sortBy: [SortDescriptor(\.legs, order: .reverse)])
        #expect(try context.fetch(starts).map(\.commonName) == ["Mars", "Mercury"])
        let contains = FetchRequest<TestAnimal>(
            predicate: #Predicate { $0.commonName.contains("ar") || ["Venus"].contains($0.commonName) },
            sortBy: [SortDescriptor(\.commonName)])
        #expect(try context.fetch(contains).map(\.commonName) == ["Earth", "Mars", "Venus"])
    }

    @Test func uniquingGivesOneInstancePerRow() throws {
        let container = try PersistentContainer(schema: StoreTestSchema.make(), path: nil)
        let context = container.viewContext
        let a = TestAnimal(context: context)
        a.commonName = "Manatee"
        try context.save()
        let again = try context.fetch(FetchRequest<TestAnimal>())
        #expect(again[0] === a)
        #expect(context.object(with: a.objectID) === a)
    }

    @Test func deleteRemovesFromFetchesBeforeAndAfterSave() throws {
        let container = try PersistentContainer(schema: StoreTestSchema.make(), path: nil)
        let context = container.viewContext
        let a = TestAnimal(context: context)
        a.commonName = "Manatee"
        let b = TestAnimal(context: context)
        b.commonName = "Ocelot"
        try context.save()
        context.delete(a)
        #expect(try context.fetch(FetchRequest<TestAnimal>()).map(\.commonName) == ["Ocelot"])
        #expect(try context.count(for: FetchRequest<TestAnimal>()) == 1)
        try context.save()
        #expect(try context.count(for: FetchRequest<TestAnimal>()) == 1)
    }

    @Test func saveNotificationCarriesPermanentIDsAndChangedKeys() throws {
        let container = try PersistentContainer(schema: StoreTestSchema.make(), path: nil)
        let context = container.viewContext
        var received: [ChangeSet] = []
        let token = context.observeDidSave { received.append($0) }
        let a = TestAnimal(context: context)
        a.commonName = "Manatee"
        try context.save()
        a.habitat = "Coastal waters"
        try context.save()
        context.delete(a)
        try context.save()
        token.cancel()
        #expect(received.count == 3)
        #expect(received[0].inserted == [a.objectID])
        #expect(received[1].updated == [a.objectID: ["habitat"]])
        #expect(received[2].deleted == [a.objectID])
        #expect(received.allSatisfy { $0.origin == .thisContext })
    }
}
