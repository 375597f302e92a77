import FolioResults
import FolioStore
import FolioTestSupport
import Foundation
import Testing

/// The sort keys of this context's own changed objects are read from the
/// objects, and the per-change callbacks get those objects without a lookup:
/// under random unsaved changes, processed in batches or saved, the rows
/// equal a fresh fetch's and every per-change callback names the object of
/// its change in the batch.
@MainActor @Suite struct ControllerPendingKeysTests {
    @Test func ownChangesPlaceRowsAsAFetchDoesAndHandOverTheirObjects() throws {
        var random = ResultsRandom.fromEnvironment()
        print("seed:", random.seed, "(FOLIO_SEED replays)")
        let directory = try StoreTemporaryDirectory()
        let container = try PersistentContainer(schema: ResultsTestSchema.make(), path: directory.path("pending.sqlite"))
        let context = container.viewContext
        var items: [ResultsItem] = []
        func name() -> String { "n\(Int.random(in: 0..<400, using: &random))" }
        func insert() {
            let item = ResultsItem(context: context)
            item.name = name()
            item.group = .random(in: 0..<6, using: &random)
            items.append(item)
        }
        for _ in 0..<150 { insert() }
        try context.save()
        let request = FetchRequest<ResultsItem>(sortBy: [SortDescriptor(\.group), SortDescriptor(\.name)])
        let controller = FetchedResultsController(
            fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: \ResultsItem.group)
        let delegate = ResultsRecordingDelegate<ResultsItem>(describe: { "\($0.group)/\($0.name)" })
        controller.delegate = delegate
        try controller.performFetch()
        for round in 0..<80 {
            for _ in 0..<Int.random(in: 1...25, using: &random) {
                switch Int.random(in: 0..<10, using: &random) {
                case 0..<4 where !items.isEmpty: items.randomElement(using: &random)!.name = name()
                case 4..<7 where !items.isEmpty: items.randomElement(using: &random)!.group = .random(in: 0..<6, using: &random)
                case 7 where !items.isEmpty:
                    let index = Int.random(in: 0..<items.count, using: &random)
                    context.delete(items.remove(at: index))
                default: insert()
                }
            }
            if round % 3 == 0 { try context.save() } else { context.processPendingChanges() }
            let shown = controller.fetchedObjects ?? []
            let fresh = try context.fetch(request) as [ResultsItem]
            #expect(shown.map { "\($0.group)/\($0.name)" } == fresh.map { "\($0.group)/\($0.name)" }, "round \(round), seed \(random.seed)")
            #expect(Set(shown.map(\.objectID)) == Set(fresh.map(\.objectID)), "round \(round), seed \(random.seed)")
            #expect(delegate.batches.count == delegate.wholeBatches.count)
            for (each, whole) in zip(delegate.batches, delegate.wholeBatches) {
                #expect(each.objectChanges == whole.objectChanges, "round \(round), seed \(random.seed)")
            }
            delegate.reset()
        }
    }
}
