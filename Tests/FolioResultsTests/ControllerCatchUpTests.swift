import FolioResults
import FolioStore
import FolioTestSupport
import Testing

/// A view context whose main thread was busy while saves landed elsewhere
/// merges every save that waited as one change set at its next turn: its
/// controllers report once and show what a fresh fetch shows. Before, each
/// save was merged (and reported) on a turn of its own, so a burst of saves
/// faster than the context merged them kept it behind for as long as the burst lasted.
@MainActor
@Suite struct ControllerCatchUpTests {
    func names(_ controller: FetchedResultsController<ResultsItem>) -> [[String]] {
        (0..<(controller.sections?.count ?? 0)).map { controller.objects(inSection: $0).map(\.name) }
    }

    @Test func savesThatWaitedForABusyMainThreadAreMergedAndReportedOnce() async throws {
        let dir = try StoreTemporaryDirectory()
        let container = try PersistentContainer(schema: ResultsTestSchema.make(), path: dir.path("catch-up.sqlite"))
        let request = FetchRequest<ResultsItem>(sortBy: [SortDescriptor(\.group), SortDescriptor(\.name)])
        let results = FetchedResultsController(
            fetchRequest: request, managedObjectContext: container.viewContext, sectionNameKeyPath: \ResultsItem.group, cacheName: nil)
        try results.performFetch()
        let recorder = ResultsRecordingDelegate<ResultsItem>(describe: \.name)
        results.delegate = recorder

        // Forty saves of another context while this turn of the main thread goes on: inserts, then
        // moves and deletions of objects inserted earlier in the burst.
        let background = container.newBackgroundContext()
        for i in 0..<40 {
            try background.performAndWait { context in
                if i >= 30 {
                    let all = try context.fetch(FetchRequest<ResultsItem>(sortBy: [SortDescriptor(\.name)]))
                    if i % 2 == 0 { all[i - 30].group = 9 } else { context.delete(all[i - 30]) }
                } else {
                    let item = ResultsItem(context: context)
                    item.name = "item \(100 + i)"
                    item.group = i % 3
                }
                try context.save()
            }
        }
        #expect(recorder.wholeBatches.isEmpty, "nothing merged while the main thread was busy")

        let fresh = try container.viewContext.fetch(request)
        let expected = Dictionary(grouping: fresh, by: \.group).sorted { $0.key < $1.key }.map { $0.value.map(\.name) }
        #expect(await waitUntil { self.names(results) == expected }, "\(names(results))")
        #expect(recorder.wholeBatches.count == 1, "\(recorder.wholeBatches.count) reports")
        let inserted = recorder.wholeBatches.first?.objectChanges.filter { $0.type == .insert }.count
        #expect(inserted == fresh.count, "one insert per object there: \(inserted ?? 0) of \(fresh.count)")
    }
}
