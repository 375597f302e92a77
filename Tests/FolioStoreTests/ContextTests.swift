import FolioStore
import FolioTestSupport
import Foundation
import Testing

@MainActor
@Suite struct ContextTests {
    func container() throws -> PersistentContainer {
        try PersistentContainer(schema: StoreTestSchema.make(), path: nil)
    }

    func animal(_ c: ObjectContext, _ name: String, legs: Int = 4) -> TestAnimal {
        let a = TestAnimal(context: c)
        a.commonName = name
        a.legs = legs
        return a
    }

    @Test func changeTrackingKeepsCommittedValues() throws {
        let c = try container().viewContext
        let a = animal(c, "Manatee", legs: 0)
        try c.save()
        #expect(!a.hasChanges)
        a.commonName = "West Indian Manatee"
        a.legs = 0
        #expect(a.hasChanges)
        #expect(a.changedKeys == ["commonName"])
        #expect(a.changedValues() == ["commonName": .text("West Indian Manatee")])
        #expect(a.committedValues(forKeys: ["commonName"]) == ["commonName": .text("Manatee")])
        #expect(c.updatedObjects == [a])
        a.commonName = "Manatee"
        #expect(!c.hasChanges)
        c.checkInvariants()
    }

    @Test func rollbackDiscardsEverything() throws {
        let c = try container().viewContext
        let keep = animal(c, "Ocelot")
        try c.save()
        keep.commonName = "Jaguar"
        let added = animal(c, "Gorilla")
        let zoo = TestZoo(context: c)
        zoo.name = "Zoo"
        zoo.animals = [keep, added]
        c.rollback()
        #expect(keep.commonName == "Ocelot")
        #expect(keep.zoos.isEmpty)
        #expect(!c.hasChanges)
        #expect(added.context == nil)
        #expect(try c.fetch(FetchRequest<TestAnimal>()).map(\.commonName) == ["Ocelot"])
        #expect(try c.count(for: FetchRequest<TestZoo>()) == 0)
        c.checkInvariants()
    }

    @Test func undoAndRedoPerGroup() throws {
        let c = try container().viewContext
        let a = animal(c, "Ocelot", legs: 4)
        try c.save()
        c.undoGroup {
            a.commonName = "Jaguar"
            a.legs = 3
        }
        a.habitat = "Rainforest"
        c.undo()
        #expect(a.habitat == "")
        #expect(a.commonName == "Jaguar")
        c.undo()
        #expect(a.commonName == "Ocelot" && a.legs == 4)
        #expect(!c.hasChanges)
        c.redo()
        #expect(a.commonName == "Jaguar" && a.legs == 3)
        c.redo()
        #expect(a.habitat == "Rainforest")
        c.checkInvariants()
    }

    @Test func undoInsertAndDelete() throws {
        let c = try container().viewContext
        let a = animal(c, "Ocelot")
        c.processPendingChanges()
        #expect(try c.count(for: FetchRequest<TestAnimal>()) == 1)
        c.undo()
        #expect(try c.count(for: FetchRequest<TestAnimal>()) == 0)
        #expect(!c.hasChanges)
        c.redo()
        #expect(try c.fetch(FetchRequest<TestAnimal>()).first === a)
        try c.save()
        c.delete(a)
        c.processPendingChanges()
        #expect(try c.count(for: FetchRequest<TestAnimal>()) == 0)
        c.undo()
        #expect(!a.isDeleted)
        #expect(try c.count(for: FetchRequest<TestAnimal>()) == 1)
        c.checkInvariants()
    }

    @Test func validationFailureWritesNothingAndKeepsChanges() throws {
        let c = try container().viewContext
        let good = animal(c, "Ocelot")
        let bad = animal(c, "Spider", legs: 8)
        bad.legs = 5000
        #expect(throws: StoreError.validation(entity: "TestAnimal", key: "legs", reason: "5000 is outside 0...1000")) {
            try c.save()
        }
        #expect(good.objectID.isTemporary)
        #expect(c.hasChanges)
        bad.legs = 8
        try c.save()
        #expect(try c.count(for: FetchRequest<TestAnimal>()) == 2)
        let unnamed = TestAnimal(context: c)
        #expect(throws: StoreError.validation(entity: "TestAnimal", key: "commonName", reason: "a value is required")) {
            try c.save()
        }
        unnamed.commonName = ""
        #expect(throws: StoreError.validation(entity: "TestAnimal", key: "commonName", reason: "must not be empty")) {
            try c.save()
        }
    }

    @Test func uniqueConstraintNamesTheValue() throws {
        let c = try container().viewContext
        let z = TestZoo(context: c)
        z.name = "San Diego Zoo"
        try c.save()
        let dup = TestZoo(context: c)
        dup.name = "San Diego Zoo"
        #expect(throws: StoreError.constraintViolation(entity: "TestZoo", key: "name", value: "'San Diego Zoo'")) {
            try c.save()
        }
        dup.name = "Bronx Zoo"
        try c.save()
        #expect(try c.count(for: FetchRequest<TestZoo>()) == 2)
    }

    @Test func fetchesSeeUnsavedInsertsChangesAndDeletes() throws {
        let c = try container().viewContext
        let a = animal(c, "Ocelot"), b = animal(c, "Manatee", legs: 0), d = animal(c, "Gorilla", legs: 2)
        try c.save()
        let fresh = animal(c, "Aardvark")
        c.delete(d)
        b.legs = 4
        var request = FetchRequest<TestAnimal>(predicate: #Predicate { $0.legs == 4 }, sortBy: [SortDescriptor(\.commonName)])
        #expect(try c.fetch(request).map(\.commonName) == ["Aardvark", "Manatee", "Ocelot"])
        #expect(try c.count(for: request) == 3)
        request.fetchLimit = 2
        request.fetchOffset = 1
        #expect(try c.fetch(request).map { $0 } == [b, a])
        request.includesPendingChanges = false
        #expect(try c.fetch(request).map(\.commonName) == [])
        _ = fresh
    }

    @Test func batchedFetchLoadsObjectsLazily() throws {
        let c = try container().viewContext
        for i in 0..<95 { _ = animal(c, String(format: "A%03d", i)) }
        try c.save()
        c.refreshAllObjects()
        var request = FetchRequest<TestAnimal>(sortBy: [SortDescriptor(\.commonName, order: .reverse)])
        request.fetchBatchSize = 20
        let results = try c.fetch(request)
        #expect(results.count == 95)
        #expect(results[0].commonName == "A094")
        #expect(results[94].commonName == "A000")
        #expect(results.map(\.commonName) == (0..<95).reversed().map { String(format: "A%03d", $0) })
    }

    @Test func refreshDiscardsOrMergesChanges() throws {
        let c = try container().viewContext
        let a = animal(c, "Ocelot")
        try c.save()
        a.commonName = "Jaguar"
        c.refresh(a, mergeChanges: false)
        #expect(a.commonName == "Ocelot")
        #expect(!c.hasChanges)
    }

    @Test func unsupportedPredicateIsAClearError() throws {
        let c = try container().viewContext
        let request = FetchRequest<TestAnimal>(predicate: #Predicate { $0.commonName.count / 2 > 3 })
        #expect(throws: StoreError.self) { try c.fetch(request) }
        do { _ = try c.fetch(request) } catch {
            #expect("\(error)".contains("predicate not supported"))
        }
    }

    @Test func stringFiltersMatchCaseInsensitivelyAndSuffixes() throws {
        let c = try container().viewContext
        for name in ["Spider Monkey", "Squirrel MONKEY", "Gorilla"] { _ = animal(c, name) }
        try c.save()
        var request = FetchRequest<TestAnimal>(sortBy: [SortDescriptor(\.commonName)])
        request.stringFilters = [StringFilter(\TestAnimal.commonName, .endsWith("monkey"), options: .caseInsensitive)]
        #expect(try c.fetch(request).map(\.commonName) == ["Spider Monkey", "Squirrel MONKEY"])
        request.stringFilters = [StringFilter(\TestAnimal.commonName, .contains("ORI"), options: .caseInsensitive)]
        #expect(try c.fetch(request).map(\.commonName) == ["Gorilla"])
        _ = animal(c, "Howler monkey")
        request.stringFilters = [StringFilter(\TestAnimal.commonName, .endsWith("monkey"))]
        #expect(try c.fetch(request).map(\.commonName) == ["Howler monkey"])
    }
}

@MainActor
@Suite struct RestrictedFetchTests {
    @Test func fetchKeysRestrictedToManyIDs() throws {
        let container = try PersistentContainer(schema: StoreTestSchema.make(), path: nil)
        let c = container.viewContext
        for i in 0..<50_000 {
            let item = TestItem(context: c)
            item.count = i
        }
        try c.save()
        let all = try c.fetchIDs(FetchRequest<TestItem>(sortBy: [SortDescriptor(\.count)]))
        let wanted = Set(all.enumerated().filter { $0.offset % 2 == 0 }.map(\.element))
        let keys = try c.fetchKeys(
            FetchRequest<TestItem>(predicate: #Predicate { $0.count < 40_000 }),
            keyPaths: [\TestItem.count], restrictedTo: wanted)
        #expect(keys.count == 20_000)
        #expect(keys.allSatisfy { wanted.contains($0.id) })
        let few = try c.fetchKeys(FetchRequest<TestItem>(), keyPaths: [\TestItem.count], restrictedTo: [all[7]])
        #expect(few.map(\.values) == [[.integer(7)]])
    }
}
