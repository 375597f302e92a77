import FolioStore
import FolioTestSupport
import Foundation
import Testing

@testable import FolioResults

/// The section cache and batched faulting.
@MainActor @Suite(.serialized) struct ControllerCacheTests {
    let directory: StoreTemporaryDirectory
    let container: PersistentContainer

    init() throws {
        directory = try StoreTemporaryDirectory()
        container = try PersistentContainer(schema: ResultsTestSchema.make(), path: directory.path("cache.sqlite"))
        ResultsCache.directory = directory.url.appendingPathComponent("caches")
        for i in 0..<50 {
            let item = ResultsItem(context: container.viewContext)
            item.name = "item \(i)"
            item.group = i % 7
        }
        try container.viewContext.save()
    }

    func controller(cache: String? = "Items", batch: Int = 0) -> FetchedResultsController<ResultsItem> {
        var request = FetchRequest<ResultsItem>(sortBy: [SortDescriptor(\.group), SortDescriptor(\.name)])
        request.fetchBatchSize = batch
        return FetchedResultsController(
            fetchRequest: request, managedObjectContext: container.viewContext,
            sectionNameKeyPath: \ResultsItem.group, cacheName: cache)
    }

    @Test func aSecondFetchWithTheSameNameUsesTheCache() throws {
        let first = controller()
        try first.performFetch()
        #expect(!first.lastFetchUsedCache)
        let second = controller()
        try second.performFetch()
        #expect(second.lastFetchUsedCache)
        #expect(second.snapshot() == first.snapshot())
        #expect(second.sections?.map(\.name) == ["0", "1", "2", "3", "4", "5", "6"])
        second.checkInvariants()
    }

    @Test func anyChangeInvalidatesTheCache() throws {
        try controller().performFetch()
        let item = ResultsItem(context: container.viewContext)  // saved with no controller watching
        item.name = "late"
        try container.viewContext.save()
        let next = controller()
        try next.performFetch()
        #expect(!next.lastFetchUsedCache)
        #expect(next.fetchedObjects?.contains { $0.name == "late" } == true)
        item.group = 3  // seen by `next`: the file goes
        try container.viewContext.save()
        #expect(!FileManager.default.fileExists(atPath: ResultsCache.file("Items").path))
    }

    @Test func aDamagedCacheIsIgnoredAndRemoved() throws {
        try controller().performFetch()
        let file = ResultsCache.file("Items")
        var data = try Data(contentsOf: file)
        data.removeLast(3)
        try data.write(to: file)
        let next = controller()
        try next.performFetch()
        #expect(!next.lastFetchUsedCache)
        #expect(next.fetchedObjects?.count == 50)
        FetchedResultsController<ResultsItem>.deleteCache(withName: nil)
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }

    @Test func batchingKeepsOnlyRecentBatchesResident() throws {
        let batched = controller(cache: nil, batch: 5)
        try batched.performFetch()
        #expect(batched.resident.isEmpty)
        let first = batched.object(at: IndexPath(row: 0, section: 0))
        #expect(first.name == "item 0")
        #expect(batched.resident.count == 5)
        let all = batched.fetchedObjects ?? []
        #expect(all.count == 50)
        #expect(batched.resident.count <= 5 * ResidentObjects.batchLimit)
    }
}
