import FolioPostgres
import FolioResults
import FolioStore
import FolioTestSupport
import Foundation
import Testing

/// Batch requests on a real PostgreSQL server, with two containers on one
/// database standing for two machines: the rules hold on the server, and a
/// batch run by one reaches the other's live controller as one report that
/// a table accepts and that equals a fresh fetch.
@MainActor
@Suite struct PostgresBatchTests {
    let uri: String

    init() async throws { uri = try await PostgresCluster.shared().makeDatabase() }

    func open() throws -> PersistentContainer {
        try PersistentContainer(schema: StoreTestSchema.make(), store: .postgreSQL(uri))
    }

    /// A classification and a zoo, saved.
    func seed(_ c: ObjectContext) throws -> (TestClassification, TestZoo) {
        let primates = TestClassification(context: c)
        primates.order = "Primates"
        primates.family = "Hominidae"
        let zoo = TestZoo(context: c)
        zoo.name = "Lowry"
        try c.save()
        return (primates, zoo)
    }

    func names(_ c: ObjectContext) throws -> [String] {
        try c.fetch(FetchRequest<TestAnimal>(sortBy: [SortDescriptor(\.commonName)])).map(\.commonName)
    }

    @Test func batchesFromOneContainerReachTheOthersControllerAsOneReportEach() async throws {
        let writer = try open(), reader = try open()
        let w = writer.viewContext
        _ = try seed(w)

        let request = FetchRequest<TestAnimal>(sortBy: [SortDescriptor(\.classification?.order), SortDescriptor(\.commonName)])
        let controller = FetchedResultsController(
            fetchRequest: request, managedObjectContext: reader.viewContext,
            sectionNameKeyPath: \TestAnimal.classification?.order)
        try controller.performFetch()
        let harness = ResultsTableHarness(controller: controller)
        func settled(_ expected: [String]) async -> Bool {
            await waitUntil(20) { (try? names(reader.viewContext)) == expected && controller.fetchedObjects?.map(\.commonName) == expected }
        }

        // Insert: 300 animals in one batch.
        let rows: [[String: Any]] = (0..<300).map { ["commonName": String(format: "N%03d", $0), "legs": $0 % 9] }
        #expect(try w.execute(BatchInsertRequest<TestAnimal>(objects: rows)).count == 300)
        var expected = rows.map { $0["commonName"] as! String }
        #expect(await settled(expected))
        #expect(harness.batches.count == 1 && harness.batches.first?.objectChanges.count == 300)

        // Update: the animals with 0 legs get the classification's... attributes only, so rename them.
        harness.reset()
        let renamed = try w.execute(
            BatchUpdateRequest<TestAnimal>(predicate: #Predicate { $0.legs == 0 }).setting(\.commonName, to: "Zero"))
        #expect(renamed.count == 34)
        expected = (expected.filter { Int($0.dropFirst())! % 9 != 0 } + Array(repeating: "Zero", count: 34)).sorted()
        #expect(await settled(expected))
        #expect(harness.batches.count == 1 && harness.tableErrors.isEmpty)

        // Delete by predicate.
        harness.reset()
        #expect(try w.execute(BatchDeleteRequest<TestAnimal>(predicate: #Predicate { $0.legs >= 5 })).count == 132)
        expected = try names(w)
        #expect(expected.count == 168)
        #expect(await settled(expected))
        #expect(harness.batches.count == 1 && harness.tableErrors.isEmpty)
        controller.checkInvariants()
    }

    @Test func rulesHoldOnTheServer() throws {
        let container = try open()
        let c = container.viewContext
        let (primates, zoo) = try seed(c)
        for name in ["Ape", "Lemur"] {
            let a = TestAnimal(context: c)
            a.commonName = name
            a.classification = primates
            a.zoos.insert(zoo)
        }
        let loner = TestAnimal(context: c)
        loner.commonName = "Loner"
        loner.zoos.insert(zoo)
        try c.save()

        #expect(throws: StoreError.validation(entity: "TestAnimal", key: "legs", reason: "2000 is outside 0...1000")) {
            try c.execute(BatchInsertRequest<TestAnimal>(objects: [["commonName": "Ok"], ["commonName": "Bad", "legs": 2000]]))
        }
        #expect(throws: StoreError.constraintViolation(entity: "TestZoo", key: "name", value: "'Same'")) {
            try c.execute(BatchInsertRequest<TestZoo>(objects: [["name": "Same"], ["name": "Same"]]))
        }
        do {
            try c.execute(BatchInsertRequest<TestZoo>(objects: [["name": "Bronx"], ["name": "Lowry"]]))
            Issue.record("a stored unique value was inserted again")
        } catch StoreError.constraintViolation(let entity, let key, _) {
            #expect(entity == "TestZoo" && key == "name")
        }
        #expect(try c.fetch(FetchRequest<TestZoo>()).map(\.name) == ["Lowry"])
        #expect(throws: StoreError.constraintViolation(entity: "TestZoo", key: "name", value: "'Lowry'")) {
            try c.execute(BatchInsertRequest<TestZoo>(objects: [["name": "Bronx"]]))
            try c.execute(BatchUpdateRequest<TestZoo>(predicate: #Predicate { $0.name == "Bronx" }).setting(\.name, to: "Lowry"))
        }
        // Cascade through the classification, nullify through the zoo's join rows.
        #expect(try c.execute(BatchDeleteRequest<TestClassification>()).count == 1)
        #expect(try names(c) == ["Loner"])
        #expect(zoo.animals.map(\.commonName) == ["Loner"])
        #expect(try c.execute(BatchDeleteRequest<TestZoo>(predicate: #Predicate { $0.name == "Lowry" })).count == 1)
        #expect(loner.zoos.isEmpty)
        let fresh = try open().viewContext
        #expect(try fresh.fetch(FetchRequest<TestAnimal>()).first?.zoos.isEmpty == true)
    }
}
