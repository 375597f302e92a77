import FolioResults
import FolioStore
import FolioTestSupport
import Foundation
import Testing

/// A fetch that fails part way through reading the rows leaves the results
/// the controller had: it builds the new ones apart and takes them only
/// once the whole read succeeded.
@MainActor
@Suite struct ControllerFailedFetchTests {
    @Test func aFetchThatFailsMidReadKeepsThePreviousResults() throws {
        let dir = try StoreTemporaryDirectory()
        let path = dir.path("zoo.sqlite")
        // Enough rows that the read streams them and then gives back its page cache.
        let rows = 12_000
        let container = try PersistentContainer(schema: StoreTestSchema.make(), path: path, pollInterval: 3600, integrityCheckLimit: 0)
        let context = container.viewContext
        for i in 0..<rows {
            let animal = TestAnimal(context: context)
            animal.commonName = String(format: "Animal %05d", i)
            animal.habitat = ["Forest", "Savanna", "Reef"][i % 3]
        }
        try context.save()
        var request = FetchRequest<TestAnimal>(sortBy: [SortDescriptor(\.habitat), SortDescriptor(\.commonName)])
        request.fetchBatchSize = 20
        let controller = FetchedResultsController(
            fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: \TestAnimal.habitat)
        try controller.performFetch()
        let before = controller.snapshot()
        #expect(before.itemIdentifiers.map(\.count) == [rows / 3, rows / 3, rows / 3])

        // The log folded into the file, then the back half of the animals' leaf pages (table and indexes) damaged:
        // the next read gets through the first half of the rows before it fails.
        #expect(StoreFileDamage.foldLog(path))
        let leaves = StoreFileDamage.leafPages(path, of: "TestAnimal", withIndexes: true)
        #expect(leaves.count > 10)
        for page in leaves[(leaves.count / 2)...] { try StoreFileDamage.damage(path, page: page) }

        #expect(throws: StoreError.self) { try controller.performFetch() }
        let after = controller.snapshot()
        #expect(after.sectionIdentifiers == before.sectionIdentifiers)
        let unchanged = after.itemIdentifiers == before.itemIdentifiers
        #expect(
            unchanged, "a failed fetch changed the rows: \(after.itemIdentifiers.map(\.count)) after \(before.itemIdentifiers.map(\.count))"
        )
        #expect(controller.sections?.map(\.numberOfObjects) == [rows / 3, rows / 3, rows / 3])
    }
}
