import FolioResults
import FolioTestSupport
import Foundation
import Testing

@testable import FolioStore

/// A context told that history it had not heard was trimmed (a reader
/// stopped past the silence limit) gets a reload change set: its controller
/// fetches afresh and reports one reload, every old section deleted and
/// every new one inserted, and then follows later saves as before.
@MainActor
@Suite struct ControllerReloadTests {
    func names(_ controller: FetchedResultsController<ResultsItem>) -> [[String]] {
        (0..<(controller.sections?.count ?? 0)).map { controller.objects(inSection: $0).map(\.name) }
    }

    func controller(_ context: ObjectContext) -> FetchedResultsController<ResultsItem> {
        FetchedResultsController(
            fetchRequest: FetchRequest<ResultsItem>(sortBy: [SortDescriptor(\.group), SortDescriptor(\.name)]),
            managedObjectContext: context, sectionNameKeyPath: \ResultsItem.group, cacheName: nil)
    }

    @Test func aReloadAfterMissedHistoryReplacesTheResultsInOneReport() async throws {
        let dir = try StoreTemporaryDirectory()
        let path = dir.path("reload.sqlite")
        let writer = try PersistentContainer(schema: ResultsTestSchema.make(), path: path)
        for (name, group) in [("Ant", 1), ("Bee", 1), ("Cat", 2)] {
            let item = ResultsItem(context: writer.viewContext)
            item.name = name
            item.group = group
        }
        try writer.viewContext.save()
        let reader = try PersistentContainer(schema: ResultsTestSchema.make(), path: path)
        let results = controller(reader.viewContext)
        try results.performFetch()
        let recorder = ResultsRecordingDelegate<ResultsItem>(describe: \.name)
        results.delegate = recorder
        #expect(names(results) == [["Ant", "Bee"], ["Cat"]])

        // Saves the reader has not heard (its follower delivers on a later main-actor turn) ...
        let items = try writer.viewContext.fetch(FetchRequest<ResultsItem>(sortBy: [SortDescriptor(\.name)]))
        writer.viewContext.delete(items[0])
        items[2].group = 3
        let dog = ResultsItem(context: writer.viewContext)
        dog.name = "Dog"
        dog.group = 1
        try writer.viewContext.save()
        // ... and then word that they were trimmed, in this same turn.
        reader.viewContext.merge(.reload(origin: .otherProcess))

        #expect(names(results) == [["Bee", "Dog"], ["Cat"]], "\(names(results))")
        let fresh = controller(reader.viewContext)
        try fresh.performFetch()
        #expect(names(results) == names(fresh))
        #expect(recorder.batches.count == 1, "one report: \(recorder.lines)")
        #expect(recorder.lines.first == "will" && recorder.lines.last == "did", "\(recorder.lines)")
        #expect(recorder.lines.filter { $0.hasPrefix("delete section") }.count == 2, "\(recorder.lines)")
        #expect(recorder.lines.filter { $0.hasPrefix("insert section") }.count == 2, "\(recorder.lines)")

        // The saves' own change set, heard afterwards, changes nothing more; later saves follow as before.
        let eel = ResultsItem(context: writer.viewContext)
        eel.name = "Eel"
        eel.group = 2
        try writer.viewContext.save()
        reader.checkForExternalChanges()
        #expect(await waitUntil { names(results) == [["Bee", "Dog"], ["Eel"], ["Cat"]] }, "\(names(results))")
    }
}
