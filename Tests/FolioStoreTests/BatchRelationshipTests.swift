import FolioStore
import FolioTestSupport
import Foundation
import Testing

/// A batch insert sets to-ones by the related object or its ID; what a
/// batch cannot set is an error at `execute`, never a trap, and nothing is
/// written.
@MainActor
@Suite struct BatchRelationshipTests {
    func makeStore() throws -> (StoreTemporaryDirectory, PersistentContainer, TestClassification) {
        let dir = try StoreTemporaryDirectory()
        let container = try PersistentContainer(schema: StoreTestSchema.make(), path: dir.path("zoo.sqlite"), pollInterval: 3600)
        let cats = TestClassification(context: container.viewContext)
        cats.order = "Carnivora"
        cats.family = "Felidae"
        try container.viewContext.save()
        return (dir, container, cats)
    }

    @Test func aBatchInsertSetsAToOneByObjectOrID() async throws {
        let (dir, container, cats) = try makeStore()
        defer { withExtendedLifetime(dir) {} }
        let context = container.viewContext
        #expect(cats.animals.isEmpty)
        try context.execute(
            BatchInsertRequest<TestAnimal>(objects: [
                ["commonName": "Lion", "classification": cats],
                ["commonName": "Tiger", "classification": cats.objectID],
                ["commonName": "Okapi", "classification": NSNull()],
            ]))
        var next = 0
        try context.execute(
            BatchInsertRequest<TestAnimal>(handler: { (values: inout BatchInsertValues<TestAnimal>) in
                guard next < 2 else { return true }
                values[\.commonName] = ["Lynx", "Puma"][next]
                if next == 0 { values[\.classification] = cats } else { values[id: \.classification] = cats.objectID }
                next += 1
                return false
            }))
        // The context that holds the classification hears its new members.
        #expect(await waitUntil { cats.animals.count == 4 })
        #expect(Set(cats.animals.map(\.commonName)) == ["Lion", "Tiger", "Lynx", "Puma"])
        let fresh = container.newBackgroundContext()
        let placed = try fresh.performAndWait { context in
            try context.fetch(FetchRequest<TestAnimal>(sortBy: [SortDescriptor(\.commonName)])).map {
                "\($0.commonName):\($0.classification?.order ?? "-")"
            }
        }
        #expect(placed == ["Lion:Carnivora", "Lynx:Carnivora", "Okapi:-", "Puma:Carnivora", "Tiger:Carnivora"])
    }

    @Test func whatABatchCannotSetIsAnErrorAtExecute() throws {
        let (dir, container, cats) = try makeStore()
        defer { withExtendedLifetime(dir) {} }
        let context = container.viewContext
        let unsaved = TestClassification(context: context)
        unsaved.order = "Primates"
        let zoo = TestZoo(context: context)
        zoo.name = "Lowry"
        let missing = ObjectID(entityName: "TestClassification", rowID: 999)
        func count() throws -> Int { try container.newBackgroundContext().performAndWait { try $0.count(for: FetchRequest<TestAnimal>()) } }
        let refused: [(String, () throws -> Void)] = [
            (
                "unsaved",
                { try context.execute(BatchInsertRequest<TestAnimal>(objects: [["commonName": "Ape", "classification": unsaved]])) }
            ),
            (
                "missing",
                { try context.execute(BatchInsertRequest<TestAnimal>(objects: [["commonName": "Ape", "classification": missing]])) }
            ),
            (
                "wrong entity",
                { try context.execute(BatchInsertRequest<TestAnimal>(objects: [["commonName": "Ape", "classification": zoo]])) }
            ),
            (
                "to-many",
                {
                    var done = false
                    try context.execute(
                        BatchInsertRequest<TestAnimal>(handler: { (values: inout BatchInsertValues<TestAnimal>) in
                            if done { return true }
                            values[\.commonName] = "Ape"
                            values[\.zoos] = [zoo]
                            done = true
                            return false
                        }))
                }
            ),
            ("update", { try context.execute(BatchUpdateRequest<TestAnimal>().setting(\.classification, to: cats)) }),
            (
                "update by name",
                {
                    var request = BatchUpdateRequest<TestAnimal>()
                    request.propertiesToUpdate = ["classification": cats]
                    try context.execute(request)
                }
            ),
        ]
        for (label, run) in refused {
            #expect(throws: StoreError.self, "\(label)") { try run() }
            #expect(try count() == 0, "\(label)")
        }
        do {
            try context.execute(BatchInsertRequest<TestAnimal>(objects: [["commonName": "Ape", "classification": missing]]))
        } catch let error as StoreError {
            guard case .relatedObjectDeleted(_, let key, _, let id) = error else { Issue.record("\(error)"); return }
            #expect(key == "classification" && id == 999)
        }
    }
}
