import FolioStore
import FolioTestSupport
import Foundation
import Testing

@testable import FolioResults

/// The objects a controller keeps alive, on their own, with real objects
/// of a store: batches kept up to the limit, renamed, and let go.
@MainActor @Suite struct ResidentObjectsTests {
    let directory: StoreTemporaryDirectory
    let objects: [Int64: ManagedObject]
    let container: PersistentContainer

    init() throws {
        directory = try StoreTemporaryDirectory()
        container = try PersistentContainer(schema: ResultsTestSchema.make(), path: directory.path("resident.sqlite"))
        for index in 0..<40 { ResultsItem(context: container.viewContext).name = "item \(index)" }
        try container.viewContext.save()
        let fetched = try container.viewContext.fetch(FetchRequest<ResultsItem>())
        objects = Dictionary(uniqueKeysWithValues: fetched.map { ($0.objectID.rowID, $0 as ManagedObject) })
    }

    func batch(_ rows: Range<Int64>) -> [Int64: ManagedObject] { objects.filter { rows.contains($0.key) } }

    @Test func onlyTheMostRecentBatchesStay() {
        var resident = ResidentObjects()
        let limit = ResidentObjects.batchLimit
        for start in 0..<Int64(limit + 2) {
            let rows = Array(start * 4 + 1...start * 4 + 4)
            resident.keep(batch: rows, objects: batch(rows.first!..<rows.last! + 1), around: rows.first!)
        }
        #expect(resident.count == 4 * limit)
        #expect(resident[1] == nil && resident[8] == nil, "the two oldest batches went")
        #expect(resident[9] === objects[9] && resident[40] === objects[40])
    }

    @Test func renamedRowsKeepTheirObjectsAndBatches() {
        var resident = ResidentObjects()
        resident.keep(batch: [1, 2], objects: batch(1..<3), around: 1)
        resident.rename([1: 101, 2: 102])
        #expect(resident[1] == nil && resident[101] === objects[1] && resident[102] === objects[2])
        // The renamed batch is still the oldest: it goes first, under its new rows.
        for start in 0..<Int64(ResidentObjects.batchLimit) {
            let row = 10 + start
            resident.keep(batch: [row], objects: batch(row..<row + 1), around: row)
        }
        #expect(resident[101] == nil && resident[102] == nil)
    }

    @Test func everyObjectWithoutBatchingAndOnlyTheKeptAfterAFilter() {
        var resident = ResidentObjects(all: objects)
        #expect(resident.count == 40)
        resident.keepOnly { $0 % 2 == 0 }
        #expect(resident.count == 20 && resident[3] == nil && resident[4] === objects[4])
        resident[4] = nil
        #expect(resident.count == 19)
    }
}
