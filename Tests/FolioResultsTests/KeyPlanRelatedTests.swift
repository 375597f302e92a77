import FolioStore
import FolioTestSupport
import Foundation
import Testing

@testable import FolioResults

/// The related keys a controller follows come from the key paths its
/// request reads (sort keys, predicate, string filters), as the store
/// resolved them: each relationship first crossed, its entity, and the keys
/// read there, so that a change to another key of the related object
/// re-reads nothing.
@MainActor @Suite struct KeyPlanRelatedTests {
    let container: PersistentContainer
    init() throws { container = try PersistentContainer(schema: LinkedTestSchema.make(), path: nil) }

    func related(_ request: FetchRequest<LinkedItem>) throws -> [String: Set<String>?] {
        let plan = try KeyPlan(request: request, sectionKeyPath: nil, context: container.viewContext)
        let entity = try #require(container.viewContext.schema.entity(named: "LinkedItem"))
        return Dictionary(
            uniqueKeysWithValues: try plan.related.map { link in
                let names = try entity.properties(along: plan.relatedKeyPaths[link.column]).map(\.name)
                return ("\(names.joined(separator: ".")) → \(link.entity)", link.keyNames)
            })
    }

    @Test func aPredicateFollowsOnlyTheKeysItReads() throws {
        let request = FetchRequest<LinkedItem>(
            predicate: #Predicate { $0.kind?.rank == 2 && $0.group == 1 },
            sortBy: [SortDescriptor(\.shelf?.label), SortDescriptor(\.name)])
        #expect(try related(request) == ["shelf → LinkedShelf": ["label"], "kind → LinkedKind": ["rank"]])
    }

    @Test func keysThroughTwoRelationshipsFollowTheFirst() throws {
        let request = FetchRequest<LinkedItem>(
            predicate: #Predicate { $0.parent?.kind?.order == "A" },
            sortBy: [SortDescriptor(\.kind?.order), SortDescriptor(\.name)])
        #expect(try related(request) == ["parent → LinkedItem": ["kind"], "kind → LinkedKind": ["order"]])
    }

    @Test func aStringFilterThroughARelationshipIsFollowed() throws {
        var request = FetchRequest<LinkedItem>(sortBy: [SortDescriptor(\.name)])
        request.stringFilters = [StringFilter(anyOf: [\LinkedItem.name, \LinkedItem.shelf?.label], .contains("a"))]
        #expect(try related(request) == ["shelf → LinkedShelf": ["label"]])
    }

    @Test func membersReadInsideContainsWhereAreNotRelated() throws {
        let request = FetchRequest<LinkedItem>(
            predicate: #Predicate { item in item.children.contains { $0.name == "A" } },
            sortBy: [SortDescriptor(\.name)])
        #expect(try related(request).isEmpty)
    }
}
