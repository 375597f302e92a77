import FolioResults
import FolioStore
import FolioTestSupport
import Foundation
import Testing

/// A save that fails because the store cannot take it (its server stopped,
/// or its file's write lock held by another connection), then rolled back,
/// as the apps do: every controller shows what the store holds again — at
/// once for what the context holds in memory, and a fresh fetch's results
/// once the store answers — and each report passes UITableView's batch
/// rules. The store keeps everything saved before.
@MainActor @Suite struct ControllerFailedSaveTests {
    typealias Model = ControllerModelTests

    enum Failure: String, CaseIterable, Sendable { case delete, insert, change }

    @Test(arguments: TestBackend.allCases, Failure.allCases)
    func aFailedSaveRolledBackShowsWhatIsStored(_ backend: TestBackend, _ failure: Failure) async throws {
        var random = ResultsRandom.fromEnvironment()
        print("seed:", random.seed, "backend:", backend, failure)
        let outage = try await StoreOutage(backend)
        let container = try PersistentContainer(schema: ResultsTestSchema.make(), store: outage.store.description, busyTimeout: 0.5)
        let context = container.viewContext
        var tags: [ResultsTag] = []
        for rank in 0..<4 {
            let tag = ResultsTag(context: context)
            tag.rank = rank * 2
            tags.append(tag)
        }
        func letter() -> String { String(UnicodeScalar(UInt8(65 + Int.random(in: 0..<20, using: &random)))) }
        func newItem() -> ResultsItem { Model.randomItem(in: context, tags: tags, using: &random) }
        let items = (0..<40).map { _ in newItem() }
        try context.save()

        var watches = try Model.watches(on: context)
        // A window (a limit) depends on ranks, which memory cannot tell: it waits for the store.
        var window = FetchRequest<ResultsItem>(sortBy: [SortDescriptor(\.name), SortDescriptor(\.score)])
        window.fetchLimit = 10
        let windowed = FetchedResultsController(fetchRequest: window, managedObjectContext: context)
        try windowed.performFetch()
        watches.append(
            Model.Watch(harness: ResultsTableHarness(controller: windowed), sectionKey: nil, previous: try Model.truth(windowed, nil)))
        func checkEachBatch(known: [Model.Sections]?) {
            for (i, watch) in watches.enumerated() {
                watch.harness.afterEachBatch = { batch in Model.check(batch, watch, controller: i, known: known?[i]) }
            }
        }
        checkEachBatch(known: nil)
        let stored = try watches.map { try Model.truth($0.harness.controller, $0.sectionKey) }

        // The change, shown before the save as the controllers follow their context.
        let picked = Array(items.shuffled(using: &random).prefix(3))
        switch failure {
        case .delete: for item in picked { context.delete(item) }
        case .insert: for _ in 0..<3 { _ = newItem() }
        case .change:
            for item in picked {
                item.name = letter()
                item.score = .random(in: 0..<8, using: &random)
                item.tag = tags.randomElement(using: &random)
                item.visible.toggle()
            }
        }
        context.processPendingChanges()
        #expect(try Model.expectConsistent(watches, "\(failure) shown, \(backend)"))

        // While the store is away, each report is checked against what it holds: the rows saved before.
        try await outage.begin()
        checkEachBatch(known: stored)
        #expect(throws: StoreError.self, "the save while the store is away") { try context.save() }
        context.rollback()
        for (i, watch) in watches.enumerated() where watch.harness.controller !== windowed {
            #expect(Model.shown(watch.harness.controller).map(\.ids) == stored[i].map(\.ids), "controller \(i) at once, \(backend)")
        }
        #expect(watches.allSatisfy { $0.problems.isEmpty && $0.harness.tableErrors.isEmpty }, "\(watches.map(\.problems))")

        checkEachBatch(known: nil)
        try await outage.end()
        func settled() -> Bool {
            watches.allSatisfy { watch in
                guard let now = try? Model.truth(watch.harness.controller, watch.sectionKey) else { return false }
                return Model.shown(watch.harness.controller).map(\.ids) == now.map(\.ids)
            }
        }
        // The windowed controller catches up only through main-actor turns after the server is back
        // (its retry, the follower's catch-up); a wall-clock deadline counted the turns other tests held.
        #expect(await waitUntil(60) { settled() }, "every controller shows what is stored, \(failure), \(backend)")
        #expect(try Model.expectConsistent(watches, "after the store answers again, \(failure), \(backend)"))
        let now = try watches.map { try Model.truth($0.harness.controller, $0.sectionKey) }
        #expect(now.map { $0.map(\.ids) } == stored.map { $0.map(\.ids) }, "the store kept what was saved")
    }
}
