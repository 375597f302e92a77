import FolioStore
import FolioTestSupport
import Foundation
import Testing

@testable import FolioResults

/// The controller translates its request once and reads every save's changed
/// rows with that translation, until the request changes: then the next save
/// is read with the new one, whether the change came through
/// `performFetch()` or `updateFetchRequest`.
@MainActor @Suite struct ControllerPreparedFetchTests {
    let directory: StoreTemporaryDirectory
    let container: PersistentContainer
    var context: ObjectContext { container.viewContext }

    init() throws {
        directory = try StoreTemporaryDirectory()
        container = try PersistentContainer(schema: ResultsTestSchema.make(), path: directory.path("prepared.sqlite"))
        for i in 0..<40 {
            let item = ResultsItem(context: container.viewContext)
            item.name = "item \(i)"
            item.group = i % 4
        }
        try container.viewContext.save()
    }

    nonisolated static func request(group: Int) -> FetchRequest<ResultsItem> {
        FetchRequest(predicate: #Predicate { $0.group == group }, sortBy: [SortDescriptor(\.name)])
    }

    /// The names a fresh fetch of `request` finds.
    func fresh(_ request: FetchRequest<ResultsItem>) throws -> [String] {
        (try context.fetch(request) as [ResultsItem]).map(\.name)
    }

    /// Renames one member of `group` (from this context, or from another one) and saves; returns once it was merged here.
    func rename(inGroup group: Int, to name: String, elsewhere: Bool) async throws {
        if elsewhere {
            var merges = 0
            let token = context.observeChanges { if $0.origin == .otherContext { merges += 1 } }
            let background = container.newBackgroundContext()
            try background.performAndWait { other in
                let item = try #require((try other.fetch(Self.request(group: group)) as [ResultsItem]).first)
                item.name = name
                try other.save()
            }
            #expect(await waitUntil(30) { merges > 0 }, "the background save never arrived")
            withExtendedLifetime(token) {}
        } else {
            let item = try #require((try context.fetch(Self.request(group: group)) as [ResultsItem]).first)
            item.name = name
            try context.save()
        }
    }

    @Test(arguments: [false, true])
    func aSaveAfterTheRequestChangedIsReadWithTheNewRequest(elsewhere: Bool) async throws {
        let controller = FetchedResultsController(fetchRequest: Self.request(group: 1), managedObjectContext: context)
        try controller.performFetch()
        let harness = ResultsTableHarness(controller: controller)
        try await rename(inGroup: 1, to: "a first", elsewhere: elsewhere)
        #expect(controller.fetchedObjects?.map(\.name) == (try fresh(Self.request(group: 1))))

        // Core Data's way: set the request, fetch again, reload the table.
        controller.fetchRequest.predicate = Self.request(group: 2).predicate
        try controller.performFetch()
        harness.table.reloadData()
        try await rename(inGroup: 2, to: "a second", elsewhere: elsewhere)
        #expect(controller.fetchedObjects?.map(\.name) == (try fresh(Self.request(group: 2))))
        #expect(controller.fetchedObjects?.count == 10, "a member renamed under the new request left the results")

        // A search field's way: a change report.
        try controller.updateFetchRequest { $0.predicate = Self.request(group: 3).predicate }
        try await rename(inGroup: 3, to: "a third", elsewhere: elsewhere)
        #expect(controller.fetchedObjects?.map(\.name) == (try fresh(Self.request(group: 3))))
        #expect(controller.fetchedObjects?.count == 10, "a member renamed under the new request left the results")
        #expect(harness.tableErrors.isEmpty, "\(harness.tableErrors)")
        controller.checkInvariants()
    }
}
