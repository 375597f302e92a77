import FolioPostgres
import FolioStore
import FolioTestSupport
import Foundation
import Testing

/// The store on a real PostgreSQL server: the same contexts, fetches,
/// relationships and errors as on SQLite.
@MainActor
@Suite struct PostgresStoreTests {
    let uri: String

    init() async throws { uri = try await PostgresCluster.shared().makeDatabase() }

    func open(_ uri: String? = nil) throws -> PersistentContainer {
        try PersistentContainer(schema: StoreTestSchema.make(), store: .postgreSQL(uri ?? self.uri))
    }

    @Test func everyAttributeTypeRoundTrips() throws {
        let when = Date(timeIntervalSince1970: 1_700_000_000.5)
        let uuid = UUID()
        do {
            let container = try open()
            let item = TestItem(context: container.viewContext)
            item.text = "héllo 'quoted' \\ \u{1F600}"
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
        let reopened = try open()
        let item = try #require(try reopened.viewContext.fetch(FetchRequest<TestItem>()).first)
        #expect(item.text == "héllo 'quoted' \\ \u{1F600}")
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

    @Test func predicatesSortsLimitsAndCountsRunOnTheServer() throws {
        let container = try open()
        let context = container.viewContext
        let mammals = TestClassification(context: context)
        mammals.order = "Mammalia"
        mammals.family = "Felidae"
        for (name, legs) in [("lion", 4), ("Emu", 2), ("ant", 6), ("Zebra", 4), ("éland", 4)] {
            let a = TestAnimal(context: context)
            a.commonName = name
            a.legs = legs
            if legs == 4 { a.classification = mammals }
        }
        try context.save()
        let reopened = try open()
        let fresh = reopened.viewContext
        let byName = try fresh.fetch(FetchRequest<TestAnimal>(sortBy: [SortDescriptor(\.commonName)]))
        // By UTF-8 bytes, as SQLite orders them: capitals first, accented letters last.
        #expect(byName.map(\.commonName) == ["Emu", "Zebra", "ant", "lion", "éland"])
        let four = FetchRequest<TestAnimal>(
            predicate: #Predicate { $0.legs == 4 && $0.commonName != "lion" },
            sortBy: [SortDescriptor(\.commonName, order: .reverse)])
        #expect(try fresh.fetch(four).map(\.commonName) == ["éland", "Zebra"])
        #expect(try fresh.count(for: four) == 2)
        var limited = FetchRequest<TestAnimal>(sortBy: [SortDescriptor(\.legs), SortDescriptor(\.commonName)])
        limited.fetchLimit = 2
        limited.fetchOffset = 1
        #expect(try fresh.fetch(limited).map(\.commonName) == ["Zebra", "lion"])
        let inMammals = FetchRequest<TestAnimal>(predicate: #Predicate { $0.classification?.order == "Mammalia" })
        #expect(try fresh.count(for: inMammals) == 3)
        let names = ["ant", "Emu"]
        #expect(try fresh.count(for: FetchRequest<TestAnimal>(predicate: #Predicate { names.contains($0.commonName) })) == 2)
        #expect(try fresh.count(for: FetchRequest<TestAnimal>(predicate: #Predicate { $0.commonName.contains("an") })) == 2)
        var search = FetchRequest<TestAnimal>(sortBy: [SortDescriptor(\.commonName)])
        search.stringFilters = [StringFilter(\TestAnimal.commonName, .contains("ELA"), options: [.caseInsensitive, .diacriticInsensitive])]
        #expect(try fresh.fetch(search).map(\.commonName) == ["éland"])
        let ids = try fresh.fetchIDs(FetchRequest<TestAnimal>())
        var batched = FetchRequest<TestAnimal>(sortBy: [SortDescriptor(\.commonName)])
        batched.fetchBatchSize = 2
        #expect(try fresh.fetch(batched).map(\.commonName).count == ids.count)
    }

    @Test func relationshipsAndDeleteRulesHold() throws {
        let container = try open()
        let context = container.viewContext
        let zoo = TestZoo(context: context)
        zoo.name = "Berlin"
        let cats = TestClassification(context: context)
        cats.order = "Carnivora"
        cats.family = "Felidae"
        let tiger = TestAnimal(context: context)
        tiger.commonName = "Tiger"
        tiger.classification = cats
        tiger.zoos = [zoo]
        try context.save()
        let reopened = try open()
        let fresh = reopened.viewContext
        let zoos = try fresh.fetch(FetchRequest<TestZoo>())
        #expect(zoos.first?.animals.map(\.commonName) == ["Tiger"])
        let classification = try #require(try fresh.fetch(FetchRequest<TestClassification>()).first)
        fresh.delete(classification)
        try fresh.save()
        #expect(try open().viewContext.count(for: FetchRequest<TestAnimal>()) == 0)  // cascade
        let after = try open()
        #expect(try after.viewContext.fetch(FetchRequest<TestZoo>()).first?.animals.isEmpty == true)
    }

    @Test func aDuplicateUniqueValueNamesTheKeyAndWritesNothing() throws {
        let a = try open(), b = try open()
        let first = TestZoo(context: a.viewContext)
        first.name = "Bronx"
        try a.viewContext.save()
        let second = TestZoo(context: b.viewContext)
        second.name = "Bronx"
        let other = TestZoo(context: b.viewContext)
        other.name = "Wien"
        #expect(throws: StoreError.constraintViolation(entity: "TestZoo", key: "name", value: "'Bronx'")) { try b.viewContext.save() }
        #expect(try open().viewContext.count(for: FetchRequest<TestZoo>()) == 1)
    }

    /// PostgreSQL text cannot hold a NUL byte: the save fails and keeps its
    /// changes, where text sent NUL-terminated was cut at the NUL and saved.
    @Test func textWithANulByteIsRefusedNotCut() throws {
        let container = try open()
        let zoo = TestZoo(context: container.viewContext)
        zoo.name = "Ber\u{0}lin"
        #expect(throws: StoreError.self) { try container.viewContext.save() }
        #expect(container.viewContext.hasChanges)
        #expect(try open().viewContext.count(for: FetchRequest<TestZoo>()) == 0)
    }

    @Test func anotherProgramsDatabaseIsRefusedAndUntouched() async throws {
        let cluster = try await PostgresCluster.shared()
        let uri = try await cluster.makeDatabase(prefix: "foreign")
        let name = PostgresCluster.databaseName(uri)
        try await cluster.runSQL(
            "CREATE TABLE customers (id int PRIMARY KEY, name text); INSERT INTO customers VALUES (1, 'Ann')", database: name)
        let before = try await cluster.runSQL(
            "SELECT string_agg(table_schema || '.' || table_name, ',' ORDER BY 1) FROM information_schema.tables "
                + "WHERE table_schema NOT IN ('pg_catalog', 'information_schema'); SELECT nspname FROM pg_namespace ORDER BY 1",
            database: name)
        #expect(throws: StoreError.self) { try open(uri) }
        do { _ = try open(uri) } catch let error as StoreError {
            #expect(error.description.contains("customers"))
        }
        let after = try await cluster.runSQL(
            "SELECT string_agg(table_schema || '.' || table_name, ',' ORDER BY 1) FROM information_schema.tables "
                + "WHERE table_schema NOT IN ('pg_catalog', 'information_schema'); SELECT nspname FROM pg_namespace ORDER BY 1",
            database: name)
        #expect(after == before)
    }

    @Test func aServerThatIsNotThereIsAClearError() throws {
        let missing = "postgresql:///nowhere?host=/nonexistent-folio-socket&user=postgres"
        #expect(throws: StoreError.self) { try open(missing) }
        do { _ = try open(missing) } catch let error as StoreError {
            guard case .offline(let store, _) = error else { Issue.record("expected offline, got \(error)"); return }
            #expect(store.contains("/nonexistent-folio-socket"))
        }
    }

    @Test func aSeedIsSavedOnceByConcurrentOpens() async throws {
        let uri = self.uri
        let schema = StoreTestSchema.make()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask { @MainActor in
                    _ = try PersistentContainer(schema: schema, store: .postgreSQL(uri)) { context in
                        for name in ["Berlin", "Wien", "Praha"] { TestZoo(context: context).name = name }
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try open().viewContext.count(for: FetchRequest<TestZoo>()) == 3)
    }
}
