import FolioStore
import FolioTestSupport
import Foundation
import Testing

/// Batch insert, update and delete requests on a real SQLite file: what they
/// write, the checks that refuse them before anything is written, and how
/// every context of the container (and a second container on the file)
/// learns of them.
@MainActor
@Suite struct BatchRequestTests {
    let dir: StoreTemporaryDirectory
    let container: PersistentContainer
    var c: ObjectContext { container.viewContext }

    init() throws {
        dir = try StoreTemporaryDirectory()
        container = try PersistentContainer(schema: StoreTestSchema.make(), path: dir.path("batch.sqlite"))
    }

    func names() throws -> [String] {
        try c.fetch(FetchRequest<TestAnimal>(sortBy: [SortDescriptor(\.commonName)])).map(\.commonName)
    }

    func seedAnimals(_ count: Int) throws -> [TestAnimal] {
        let animals = (0..<count).map { i -> TestAnimal in
            let a = TestAnimal(context: c)
            a.commonName = "A\(i)"
            a.legs = i % 5
            return a
        }
        try c.save()
        return animals
    }

    @Test func insertFromDictionariesAndHandlersWritesEveryRowWithDefaults() throws {
        var request = BatchInsertRequest<TestAnimal>(objects: [["commonName": "Bat", "legs": 2], ["commonName": "Cat"]])
        request.resultType = .objectIDs
        let result = try c.execute(request)
        #expect(result.count == 2)
        #expect(result.objectIDs.count == 2 && result.objectIDs.allSatisfy { !$0.isTemporary })
        var i = 0
        let typed = BatchInsertRequest<TestAnimal>(handler: { (values: inout BatchInsertValues<TestAnimal>) in
            if i == 3 { return true }
            values[\.commonName] = "H\(i)"
            values[\.habitat] = "Forest"
            i += 1
            return false
        })
        #expect(try c.execute(typed).count == 3)
        var j = 0
        let dictionaries = BatchInsertRequest<TestAnimal>(dictionaryHandler: { values in
            if j == 2 { return true }
            values["commonName"] = "D\(j)"
            values["legs"] = 8
            j += 1
            return false
        })
        #expect(try c.execute(dictionaries).count == 2)
        #expect(try names() == ["Bat", "Cat", "D0", "D1", "H0", "H1", "H2"])
        let cat = try c.fetch(FetchRequest<TestAnimal>(predicate: #Predicate { $0.commonName == "Cat" })).first!
        #expect(cat.legs == 4 && cat.habitat == "")  // the defaults
        let bat = c.object(with: result.objectIDs[0], as: TestAnimal.self)
        #expect(bat.commonName == "Bat" && bat.legs == 2)
    }

    /// Each broken rule is refused with its error, and the store is exactly as before.
    @Test func insertChecksEveryValueBeforeWriting() throws {
        _ = try seedAnimals(2)
        let zoo = TestZoo(context: c)
        zoo.name = "Lowry"
        try c.save()
        let before = try names()
        let cases: [(BatchInsertRequest<TestAnimal>, StoreError)] = [
            (
                .init(objects: [["commonName": "Ok"], ["commonName": "Bad", "legs": 2000]]),
                .validation(entity: "TestAnimal", key: "legs", reason: "2000 is outside 0...1000")
            ),
            (
                .init(objects: [["commonName": "Ok"], ["legs": 2]]),
                .validation(entity: "TestAnimal", key: "commonName", reason: "a value is required")
            ),
            (.init(objects: [["commonName": ""]]), .validation(entity: "TestAnimal", key: "commonName", reason: "must not be empty")),
            (
                .init(objects: [["commonName": "Ok", "legs": "four"]]),
                .validation(entity: "TestAnimal", key: "legs", reason: "expected a value of type integer, found 'four'")
            ),
            (.init(objects: [["commonName": "Ok", "wings": 2]]), .unknownKeyPath(entity: "TestAnimal", keyPath: "wings")),
            (
                .init(objects: [["commonName": "Ok", "zoos": NSNull()]]),
                .validation(entity: "TestAnimal", key: "zoos", reason: "batch requests set attributes only, not relationships")
            ),
        ]
        for (request, expected) in cases {
            #expect(throws: expected) { try c.execute(request) }
            #expect(try names() == before)
        }
        // Unique: among the new rows, and against a stored row.
        #expect(throws: StoreError.constraintViolation(entity: "TestZoo", key: "name", value: "'Bronx'")) {
            try c.execute(BatchInsertRequest<TestZoo>(objects: [["name": "Bronx"], ["name": "Bronx"]]))
        }
        #expect(throws: StoreError.constraintViolation(entity: "TestZoo", key: "name", value: "'Lowry'")) {
            try c.execute(BatchInsertRequest<TestZoo>(objects: [["name": "Bronx"], ["name": "Lowry"]]))
        }
        #expect(try c.fetch(FetchRequest<TestZoo>()).map(\.name) == ["Lowry"])
        // A required to-one cannot be set by a batch insert.
        #expect(throws: StoreError.self) { try c.execute(BatchInsertRequest<TestCrew>(objects: [["name": "Kirk"]])) }
    }

    @Test func updateSetsTheMatchingRowsAndRefreshesRegisteredObjects() throws {
        let animals = try seedAnimals(10)
        let edited = animals[1]  // legs 1: not matched
        edited.habitat = "Unsaved"
        let matched = animals[3]  // legs 3: matched, with an unsaved edit of another key
        matched.commonName = "Renamed"
        var request = BatchUpdateRequest<TestAnimal>(predicate: #Predicate { $0.legs >= 3 })
        request.set(\.habitat, to: "River")
        request.propertiesToUpdate = ["legs": 7]
        request.resultType = .objectIDs
        let result = try c.execute(request)
        #expect(result.count == 4)
        #expect(result.objectIDs == [3, 4, 8, 9].map { animals[$0].objectID })
        // Uniquing: the same instances, refreshed; unsaved edits kept.
        #expect(animals[4].habitat == "River" && animals[4].legs == 7)
        #expect(matched.habitat == "River" && matched.legs == 7 && matched.commonName == "Renamed")
        #expect(edited.habitat == "Unsaved" && edited.legs == 1)
        #expect(c.object(with: animals[8].objectID) === animals[8])
        try c.save()
        let stored = try container.newBackgroundContext().performAndWait { bg in
            try bg.fetch(FetchRequest<TestAnimal>(predicate: #Predicate { $0.habitat == "River" })).map(\.commonName).sorted()
        }
        #expect(stored == ["A4", "A8", "A9", "Renamed"])
    }

    @Test func updateRefusesBadValuesAndBrokenUniquenessBeforeWriting() throws {
        _ = try seedAnimals(3)
        for name in ["Lowry", "Bronx"] { TestZoo(context: c).name = name }
        try c.save()
        let all = BatchUpdateRequest<TestAnimal>()
        #expect(throws: StoreError.validation(entity: "TestAnimal", key: "legs", reason: "-1 is outside 0...1000")) {
            try c.execute(all.setting(\.legs, to: -1))
        }
        var nothing = all
        nothing.propertiesToUpdate = [:]
        #expect(throws: StoreError.self) { try c.execute(nothing) }
        var wrongType = all
        wrongType.propertiesToUpdate = ["habitat": 3]
        #expect(throws: StoreError.validation(entity: "TestAnimal", key: "habitat", reason: "expected a value of type text, found 3")) {
            try c.execute(wrongType)
        }
        #expect(throws: StoreError.constraintViolation(entity: "TestZoo", key: "name", value: "'Same'")) {
            try c.execute(BatchUpdateRequest<TestZoo>().setting(\.name, to: "Same"))
        }
        #expect(throws: StoreError.constraintViolation(entity: "TestZoo", key: "name", value: "'Lowry'")) {
            try c.execute(BatchUpdateRequest<TestZoo>(predicate: #Predicate { $0.name == "Bronx" }).setting(\.name, to: "Lowry"))
        }
        c.refreshAllObjects()
        #expect(try c.fetch(FetchRequest<TestAnimal>()).map(\.legs).sorted() == [0, 1, 2])
        #expect(try c.fetch(FetchRequest<TestZoo>()).map(\.name).sorted() == ["Bronx", "Lowry"])
        // A unique value set on one row that holds no other's is fine.
        #expect(
            try c.execute(BatchUpdateRequest<TestZoo>(predicate: #Predicate { $0.name == "Bronx" }).setting(\.name, to: "Bronx Zoo")).count
                == 1)
    }

    @Test func deleteAppliesCascadeAndNullifyAndTellsTheContext() throws {
        let animals = try seedAnimals(6)
        let primates = TestClassification(context: c)
        primates.order = "Primates"
        primates.family = "Hominidae"
        let zoo = TestZoo(context: c)
        zoo.name = "Lowry"
        for a in animals[0..<3] { a.classification = primates }
        for a in animals[2..<5] { a.zoos.insert(zoo) }
        try c.save()
        _ = zoo.animals.count  // loaded, so it must forget the deleted members
        // Cascade: the classification takes animals 0-2 with it; the zoo loses animal 2.
        var request = BatchDeleteRequest<TestClassification>(predicate: #Predicate { $0.order == "Primates" })
        request.resultType = .count
        #expect(try c.execute(request).count == 1)
        #expect(try names() == ["A3", "A4", "A5"])
        #expect(primates.isDeleted || primates.context == nil)
        #expect(animals[0].context == nil)
        #expect(Set(zoo.animals.map(\.commonName)) == ["A3", "A4"])
        // By IDs, nullify: the zoo's join rows go too.
        #expect(try c.execute(BatchDeleteRequest<TestAnimal>(objectIDs: [animals[3].objectID, animals[0].objectID])).count == 1)
        #expect(Set(zoo.animals.map(\.commonName)) == ["A4"])
        #expect(try c.execute(BatchDeleteRequest<TestZoo>()).count == 1)
        let a4 = try c.fetch(FetchRequest<TestAnimal>(predicate: #Predicate { $0.commonName == "A4" })).first!
        #expect(a4.zoos.isEmpty)
        try c.save()
    }

    /// Another container on the same file (as another process would) hears
    /// each batch once, as one change set with every ID.
    @Test func anotherContainerOnTheFileHearsEachBatchAsOneChange() async throws {
        _ = try seedAnimals(4)
        let other = try PersistentContainer(schema: StoreTestSchema.make(), path: dir.path("batch.sqlite"))
        var heard: [ChangeSet] = []
        let token = other.viewContext.observeChanges { if $0.origin == .otherProcess { heard.append($0) } }
        let watched = try other.viewContext.fetch(FetchRequest<TestAnimal>(predicate: #Predicate { $0.legs == 2 })).first!
        #expect(try c.execute(BatchInsertRequest<TestAnimal>(objects: (0..<500).map { ["commonName": "N\($0)"] })).count == 500)
        #expect(
            try c.execute(BatchUpdateRequest<TestAnimal>(predicate: #Predicate { $0.legs == 2 }).setting(\.habitat, to: "Cave")).count == 1)
        #expect(try c.execute(BatchDeleteRequest<TestAnimal>(predicate: #Predicate { $0.legs == 3 })).count == 1)
        other.checkForExternalChanges()
        func all() -> ChangeSet {
            heard.reduce(ChangeSet()) {
                ChangeSet(
                    inserted: $0.inserted.union($1.inserted), updated: $0.updated.merging($1.updated) { $0.union($1) },
                    deleted: $0.deleted.union($1.deleted))
            }
        }
        #expect(await waitUntil { all().allIDs.count == 502 })
        #expect(heard.count <= 3)
        let all = all()
        #expect(all.inserted.count == 500)
        #expect(all.updated.keys.map(\.rowID) == [watched.objectID.rowID] && all.updated[watched.objectID] == ["habitat"])
        #expect(all.deleted.count == 1)
        #expect(watched.habitat == "Cave")
        withExtendedLifetime(token) {}
    }
}
