import FolioStore
import FolioTestSupport
import Foundation
import Testing

/// Saves big enough to take the bulk write path: one statement per entity and
/// set of changed columns, rows in row ID order, a bigger page cache.
@MainActor
@Suite struct BigSaveTests {
    static let count = 3_000

    /// Seeds `count` animals and zoos into a file store and returns its path.
    func seeded(_ dir: StoreTemporaryDirectory) throws -> String {
        let path = dir.path("big.sqlite")
        let container = try PersistentContainer(schema: StoreTestSchema.make(), path: path)
        let c = container.viewContext
        for i in 0..<Self.count {
            let a = TestAnimal(context: c)
            a.commonName = "animal \(i)"
            a.legs = i % 10
            let z = TestZoo(context: c)
            z.name = "zoo \(i)"
        }
        try c.save()
        return path
    }

    /// Every object changes a different set of columns in one save; each
    /// must get exactly its own columns written (a statement shared between
    /// two shapes would write one's values into the other's columns).
    @Test func eachUpdateWritesItsOwnColumns() throws {
        let dir = try StoreTemporaryDirectory()
        let path = try seeded(dir)
        var expected: [String: (name: String, legs: Int, habitat: String)] = [:]
        do {
            let container = try PersistentContainer(schema: StoreTestSchema.make(), path: path)
            let c = container.viewContext
            // Reverse order, so that the writes go out in another order than the objects were changed.
            let animals = try c.fetch(
                FetchRequest<TestAnimal>(sortBy: [SortDescriptor(\.legs, order: .reverse), SortDescriptor(\.commonName)]))
            for (i, a) in animals.enumerated() {
                let old = a.commonName
                switch i % 4 {
                case 0: a.commonName = old + " renamed"
                case 1: a.legs = 11 + i % 400
                case 2: a.habitat = "h\(i)"
                default: a.commonName = old + " both"; a.legs = 500 + i % 400
                }
                expected[old] = (a.commonName, a.legs, a.habitat)
            }
            for z in try c.fetch(FetchRequest<TestZoo>()) { z.location = "at " + z.name }
            try c.save()
        }
        let container = try PersistentContainer(schema: StoreTestSchema.make(), path: path)
        let animals = try container.viewContext.fetch(FetchRequest<TestAnimal>())
        #expect(animals.count == Self.count)
        let stored = Dictionary(uniqueKeysWithValues: animals.map { ($0.commonName, ($0.legs, $0.habitat)) })
        for (old, want) in expected {
            let got = stored[want.name]
            #expect(got?.0 == want.legs && got?.1 == want.habitat, "\(old) → \(want) but stored \(String(describing: got))")
        }
        for z in try container.viewContext.fetch(FetchRequest<TestZoo>()) { #expect(z.location == "at " + z.name) }
    }

    /// A unique constraint broken by one update of a big save: the error
    /// names the value, nothing of the save is written, and it can be fixed and saved.
    @Test func aBrokenConstraintInABigSaveWritesNothing() throws {
        let dir = try StoreTemporaryDirectory()
        let path = try seeded(dir)
        let container = try PersistentContainer(schema: StoreTestSchema.make(), path: path)
        let c = container.viewContext
        let zoos = try c.fetch(FetchRequest<TestZoo>(sortBy: [SortDescriptor(\.name)]))
        for z in zoos { z.location = "changed" }
        let clash = zoos[zoos.count / 2]
        let taken = zoos[0].name
        clash.name = taken
        #expect(throws: StoreError.constraintViolation(entity: "TestZoo", key: "name", value: "'\(taken)'")) { try c.save() }
        let other = try PersistentContainer(schema: StoreTestSchema.make(), path: path).viewContext
        #expect(try other.fetch(FetchRequest<TestZoo>()).allSatisfy { $0.location == nil })
        clash.name = "a zoo of its own"
        try c.save()
        let fresh = try PersistentContainer(schema: StoreTestSchema.make(), path: path).viewContext
        #expect(try fresh.fetch(FetchRequest<TestZoo>()).allSatisfy { $0.location == "changed" })
    }

    /// Keys restricted to some IDs, with unsaved changes to some of them and
    /// others only stored: the changed ones come from memory, the rest from the store.
    @Test func restrictedKeysMixUnsavedAndStoredRows() throws {
        let container = try PersistentContainer(schema: StoreTestSchema.make(), path: nil)
        let c = container.viewContext
        let animals = (0..<6).map { i -> TestAnimal in
            let a = TestAnimal(context: c)
            a.commonName = "a\(i)"
            a.legs = i
            return a
        }
        try c.save()
        animals[0].legs = 40
        animals[1].legs = 2  // still matches below
        c.delete(animals[2])
        let request = FetchRequest<TestAnimal>(predicate: #Predicate { $0.legs >= 2 }, sortBy: [SortDescriptor(\.legs)])
        let ids = Set([0, 1, 2, 3].map { animals[$0].objectID })
        let keys = try c.fetchKeys(request, keyPaths: [\TestAnimal.legs], restrictedTo: ids)
        #expect(keys.map(\.id) == [animals[1], animals[3], animals[0]].map(\.objectID))
        #expect(keys.map(\.values) == [[.integer(2)], [.integer(3)], [.integer(40)]])
        // Every restricted object in memory: the store is not asked, and the answer is the same kind.
        let onlyChanged = try c.fetchKeys(request, keyPaths: [\TestAnimal.legs], restrictedTo: [animals[0].objectID, animals[2].objectID])
        #expect(onlyChanged.map(\.id) == [animals[0].objectID])
    }
}
