import FolioResults
import FolioStore
import FolioTestSupport
import Foundation
import Testing

/// Batch requests of another process on the same SQLite file reach this
/// process's contexts and live controller: each as one report the table
/// accepts, ending where a fresh fetch is, registered objects refreshed.
@MainActor
@Suite struct BatchProcessTests {
    @Test func anotherProcesssBatchesReachTheControllerAsOneReportEach() async throws {
        let dir = try StoreTemporaryDirectory()
        let path = dir.path("batch.sqlite")
        let container = try PersistentContainer(schema: StoreTestSchema.make(), path: path)
        let c = container.viewContext
        let kept = TestAnimal(context: c)
        kept.commonName = "Kept"
        kept.legs = 2
        try c.save()
        let request = FetchRequest<TestAnimal>(sortBy: [SortDescriptor(\.habitat), SortDescriptor(\.commonName)])
        let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: c, sectionNameKeyPath: \TestAnimal.habitat)
        try controller.performFetch()
        let harness = ResultsTableHarness(controller: controller)

        let child = try StoreChildProcess(executable: StoreChildProcess.sibling("folio-store-worker"), arguments: ["batch", path])
        child.closeInput()
        #expect(await child.waitForLine { $0 == "ran delete 40" } != nil, "\(child.lines.map(\.line))")
        func fresh() throws -> [String] { try c.fetch(request).map(\.commonName) }
        #expect(
            await waitUntil(20) { (try? fresh()).map { $0.count == 161 && controller.fetchedObjects?.map(\.commonName) == $0 } ?? false })
        #expect(harness.tableErrors.isEmpty)
        #expect((1...3).contains(harness.batches.count), "\(harness.batches.count) reports for three batches")
        #expect(kept.habitat == "Cave")
        #expect(controller.sections?.map(\.name) == ["", "Cave"])
        controller.checkInvariants()
        await child.finish()
    }
}
