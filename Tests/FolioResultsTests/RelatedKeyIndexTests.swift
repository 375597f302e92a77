import FolioStore
import FolioTestSupport
import Testing

@testable import FolioResults

/// The related-key index on its own: which objects a change to a related
/// object names, as links are made, moved, dropped and renamed.
@Suite struct RelatedKeyIndexTests {
    typealias Related = KeyPlan<ResultsItem>.Related

    func tag(_ row: Int64) -> ObjectID { ObjectID(entityName: "ResultsTag", rowID: row) }

    func dependents(_ index: RelatedKeyIndex, _ changes: ChangeSet) -> [Int64] {
        var found: [Int64] = []
        index.forEachDependent(of: changes) { found.append($0) }
        return found.sorted()
    }

    @Test func aRelatedChangeNamesTheObjectsThatReadIt() {
        var index = RelatedKeyIndex([Related(column: 0, entity: "ResultsTag", keyNames: ["rank"])])
        index.link([(1, [.integer(10)]), (2, [.integer(10)]), (3, [.integer(11)]), (4, [.null])], removed: [])
        #expect(dependents(index, ChangeSet(updated: [tag(10): ["rank"]])) == [1, 2])
        #expect(dependents(index, ChangeSet(updated: [tag(10): ["label"]])).isEmpty, "a key no dependent reads")
        #expect(dependents(index, ChangeSet(deleted: [tag(11)])) == [3])
        #expect(dependents(index, ChangeSet(inserted: [tag(11)])) == [3], "a deleted tag back after a rollback")
        #expect(dependents(index, ChangeSet(updated: [ObjectID(entityName: "ResultsItem", rowID: 10): ["rank"]])).isEmpty)
    }

    @Test func linksMoveGoAndFollowNewIDs() {
        var index = RelatedKeyIndex([Related(column: 0, entity: "ResultsTag", keyNames: nil)])
        index.link([(1, [.integer(10)]), (2, [.integer(10)]), (3, [.integer(11)])], removed: [])
        index.link([(2, [.integer(11)])], removed: [1])
        #expect(dependents(index, ChangeSet(updated: [tag(10): ["label"]])).isEmpty)
        #expect(dependents(index, ChangeSet(updated: [tag(11): ["label"]])) == [2, 3], "any key counts without key names")
        index.rename(rows: [3: 30], related: [tag(11): tag(12)])
        #expect(dependents(index, ChangeSet(updated: [tag(11): ["rank"]])).isEmpty)
        #expect(dependents(index, ChangeSet(updated: [tag(12): ["rank"]])) == [2, 30])
    }
}
