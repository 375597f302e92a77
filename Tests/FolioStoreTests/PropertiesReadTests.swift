import FolioStore
import FolioTestSupport
import Foundation
import Testing

/// What a request's filters read is the translation's own record of the key
/// paths it resolved, not a reading of the SQL it made: every path from the
/// fetched entity, in order, through any relationship; none from inside
/// `contains(where:)`, whose paths start at the members.
@MainActor @Suite struct PropertiesReadTests {
    let container: PersistentContainer
    init() throws { container = try PersistentContainer(schema: StoreTestSchema.make(), path: nil) }

    func read(_ request: FetchRequest<TestAnimal>) throws -> [[String]] {
        try container.viewContext.propertiesRead(byFiltersOf: request).map { $0.map(\.name) }
    }

    @Test func aPredicateReadsThroughARelationship() throws {
        let request = FetchRequest<TestAnimal>(predicate: #Predicate { $0.classification?.order == "Carnivora" && $0.legs == 4 })
        let got = try read(request)
        // `?.` reads the relationship itself first (is it nil?), then the key behind it.
        #expect(got == [["classification"], ["classification", "order"], ["legs"]], "\(got)")
    }

    @Test func stringFiltersAreRead() throws {
        var request = FetchRequest<TestAnimal>()
        request.stringFilters = [StringFilter(anyOf: [\TestAnimal.commonName, \TestAnimal.classification?.family], .contains("cat"))]
        let got = try read(request)
        #expect(got == [["commonName"], ["classification", "family"]], "\(got)")
    }

    @Test func membersOfAToManyAreNotReadFromTheEntity() throws {
        let request = FetchRequest<TestAnimal>(predicate: #Predicate { animal in animal.zoos.contains { $0.name == "Bronx" } })
        let got = try read(request)
        #expect(got == [["zoos"]], "\(got)")
    }

    @Test func noFiltersReadNothing() throws {
        #expect(try read(FetchRequest<TestAnimal>(sortBy: [SortDescriptor(\.classification?.order)])).isEmpty)
    }
}
