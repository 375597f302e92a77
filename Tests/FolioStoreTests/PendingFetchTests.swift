import FolioStore
import FolioTestSupport
import Foundation
import Testing

/// Fetches show unsaved changes of related objects that their sort keys,
/// key paths and predicates read through a to-one relationship.
@MainActor
@Suite struct PendingFetchTests {
    /// Manatee in Sirenia; Gorilla and Ocelot in Primates; saved.
    func zoo() throws -> (ObjectContext, sirenia: TestClassification) {
        let c = try PersistentContainer(schema: StoreTestSchema.make(), path: nil).viewContext
        func kind(_ order: String) -> TestClassification {
            let k = TestClassification(context: c); k.order = order; k.family = order + "idae"; return k
        }
        let sirenia = kind("Sirenia"), primates = kind("Primates")
        for (name, k) in [("Manatee", sirenia), ("Gorilla", primates), ("Ocelot", primates)] {
            let a = TestAnimal(context: c)
            a.commonName = name
            a.classification = k
        }
        try c.save()
        c.refreshAllObjects()
        return (c, sirenia)
    }

    @Test func aRelatedObjectsUnsavedValueSortsAndFilters() throws {
        let (c, sirenia) = try zoo()
        sirenia.order = "Afrotheria"
        let byOrder = FetchRequest<TestAnimal>(sortBy: [SortDescriptor(\.classification?.order), SortDescriptor(\.commonName)])
        #expect(try c.fetch(byOrder).map(\.commonName) == ["Manatee", "Gorilla", "Ocelot"])
        #expect(try c.fetchIDs(byOrder).count == 3)
        let keys = try c.fetchKeys(byOrder, keyPaths: [\TestAnimal.classification?.order])
        #expect(keys.map(\.values) == [[.text("Afrotheria")], [.text("Primates")], [.text("Primates")]])
        let renamed = FetchRequest<TestAnimal>(predicate: #Predicate { $0.classification?.order == "Afrotheria" })
        #expect(try c.count(for: renamed) == 1)
        let old = FetchRequest<TestAnimal>(predicate: #Predicate { $0.classification?.order == "Sirenia" })
        #expect(try c.count(for: old) == 0)
        var stored = old
        stored.includesPendingChanges = false
        #expect(try c.count(for: stored) == 1, "without pending changes the stored value counts")
    }

    @Test func aRestrictedFetchReadsTheRelatedUnsavedValue() throws {
        let (c, sirenia) = try zoo()
        sirenia.order = "Afrotheria"
        let request = FetchRequest<TestAnimal>(sortBy: [SortDescriptor(\.classification?.order)])
        let manatee = try #require(try c.fetch(FetchRequest<TestAnimal>(predicate: #Predicate { $0.commonName == "Manatee" })).first)
        let keys = try c.fetchKeys(request, keyPaths: [\TestAnimal.classification?.order], restrictedTo: [manatee.objectID])
        #expect(keys.map(\.values) == [[.text("Afrotheria")]])
    }
}
