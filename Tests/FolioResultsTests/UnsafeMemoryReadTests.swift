import FolioStore
import FolioTestSupport
import Foundation
import Testing

@testable import FolioResults

/// A batch's changed objects read from memory on several threads give what
/// one thread gives, however the candidates are split: the rows, objects and
/// IDs in candidate order; which candidates were read; and the rest, left
/// for the store (not changed here, not registered, or not loaded). A
/// deleted candidate is in neither.
@MainActor @Suite struct UnsafeMemoryReadTests {
    typealias Candidate = (id: Int64, changed: Bool)

    @Test func everySplitReadsWhatTheRulesSay() throws {
        var random = ResultsRandom.fromEnvironment()
        print("seed:", random.seed)
        let store = try TestBackend.sqlite.makeStore()
        let container = try PersistentContainer(schema: ResultsTestSchema.make(), store: store.description)
        let context = container.viewContext
        func item(_ i: Int) -> ResultsItem {
            let item = ResultsItem(context: context)
            item.name = "n\(Int.random(in: 0..<500, using: &random))"
            item.group = i % 7
            return item
        }
        var items = (0..<3_000).map(item)
        try context.save()
        // New objects, objects turned back into faults, deleted ones (saved and new).
        items += (0..<600).map(item)
        let saved = items.filter { !$0.objectID.isTemporary }
        for object in saved.shuffled(using: &random).prefix(300) { context.refresh(object, mergeChanges: false) }
        for object in items.shuffled(using: &random).prefix(200) { context.delete(object) }
        let base = AnyFetchedResultsController.temporaryBase
        func engineID(_ id: ObjectID) -> Int64 { id.rowID >= 0 ? id.rowID : base - id.rowID }
        // Candidates: every item, rows nothing is registered for, and a new tag's ID (another entity's).
        let tag = ResultsTag(context: context)
        var ids = items.map { engineID($0.objectID) } + (1...200).map { 1_000_000 + Int64($0) } + [engineID(tag.objectID)]
        ids.sort()
        let candidates: [Candidate] = ids.map { ($0, Int.random(in: 0..<4, using: &random) > 0) }
        let changed = ids.filter { _ in Int.random(in: 0..<10, using: &random) > 0 }
        let deleted = ids.filter { _ in Int.random(in: 0..<20, using: &random) == 0 }
        let registered = try #require(context.registeredRows(ofEntity: "ResultsItem"))
        #expect(registered.object(anyRowID: tag.objectID.rowID) == nil, "another entity's new object")
        let keys = ObjectKeys(
            slots: [ResultsItem.entity.byName["group"]!.attributeSlot!, ResultsItem.entity.byName["name"]!.attributeSlot!],
            ascending: [true, false], sortCount: 2, sectioned: true)

        // The rules, one candidate at a time.
        var expectedRead: [Int64] = [], expectedRest: [Int64] = []
        let changedSet = Set(changed), deletedSet = Set(deleted)
        for candidate in candidates where !deletedSet.contains(candidate.id) {
            let object =
                changedSet.contains(candidate.id)
                ? registered.object(anyRowID: AnyFetchedResultsController.storeRowID(candidate.id))?.takeUnretainedValue() : nil
            guard let object, !object.isFault else {
                expectedRest.append(candidate.id)
                continue
            }
            if !object.isDeleted { expectedRead.append(candidate.id) }
        }
        #expect(expectedRead.count > 1_000 && expectedRest.count > 200, "the batch has rows of every kind")

        let changedFlag = Dictionary(uniqueKeysWithValues: candidates.map { ($0.id, $0.changed) })
        for lanes in [1, 2, 3, 8] {
            let read = UnsafeMemoryRead(
                keys: keys, candidates: candidates, changed: changed, deleted: deleted, registered: registered, lanes: lanes)
            Lanes.run(read.lanes) { read.run(lane: $0) }
            let taken = read.take(capacity: candidates.count)
            #expect(taken.ids == expectedRead, "\(lanes) lanes")
            #expect(taken.rows.map(\.id) == expectedRead, "\(lanes) lanes")
            #expect(taken.rest == expectedRest, "\(lanes) lanes")
            #expect(taken.rows.capacity >= candidates.count, "\(lanes) lanes")
            #expect(candidates.indices.filter { taken.present[$0] }.map { candidates[$0].id } == expectedRead, "\(lanes) lanes")
            for (index, row) in taken.rows.enumerated() {
                let object = try #require(taken.objects[index] as? ResultsItem)
                #expect(engineID(object.objectID) == row.id)
                #expect(row.row?.section.value == .integer(Int64(object.group)))
                #expect(row.row?.key.values == [.text(object.name)])
                #expect(row.objectChanged == changedFlag[row.id])
            }
        }
        // Read and never taken: what was read is let go with it.
        let dropped = UnsafeMemoryRead(
            keys: keys, candidates: candidates, changed: changed, deleted: deleted, registered: registered, lanes: 3)
        Lanes.run(dropped.lanes) { dropped.run(lane: $0) }
    }
}
