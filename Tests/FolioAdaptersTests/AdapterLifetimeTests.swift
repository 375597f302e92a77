import FolioAdapters
import FolioResults
import FolioStore
import FolioTable
import FolioTestSupport
import Foundation
import Testing

/// A screen's whole graph (container, context, controllers, tables, the
/// classic adapter and its relay, the diffable data source and its
/// snapshot handler) goes when its owner lets go, after batches were
/// applied: nothing in the glue holds the screen back.
@MainActor
struct AdapterLifetimeTests {
    /// Weak references to every part of one screen.
    private struct Parts {
        weak var container: PersistentContainer?
        weak var context: ObjectContext?
        weak var classic: FetchedResultsController<ResultsItem>?
        weak var diffable: FetchedResultsController<ResultsItem>?
        weak var classicTable: TableView?
        weak var diffableTable: TableView?
        weak var adapter: FetchedResultsTableAdapter?
        weak var relay: StoreAdapterRelay?
        weak var rows: StoreAdapterRows?
        weak var dataSource: TableViewDiffableDataSource<SectionIdentifier, ObjectID>?

        var survivors: [String] {
            let parts: [(String, AnyObject?)] = [
                ("container", container), ("context", context), ("classic controller", classic),
                ("diffable controller", diffable), ("classic table", classicTable),
                ("diffable table", diffableTable), ("adapter", adapter), ("relay", relay),
                ("rows data source", rows), ("diffable data source", dataSource),
            ]
            return parts.compactMap { $0.1 == nil ? nil : $0.0 }
        }
    }

    @Test func aScreenWithBothAdaptersIsReleasedAfterAppliedSaves() throws {
        let directory = try StoreTemporaryDirectory()
        let path = directory.path("adapter-lifetime.sqlite")
        var parts = Parts()
        do {
            let container = try PersistentContainer(schema: ResultsTestSchema.make(), path: path)
            let context = container.viewContext
            for name in ["Ant", "Bee", "Cat"] {
                let item = ResultsItem(context: context)
                item.name = name
                item.group = name == "Bee" ? 1 : 0
            }
            try context.save()

            let request = FetchRequest<ResultsItem>(sortBy: [SortDescriptor(\.group), SortDescriptor(\.name)])
            let classic = FetchedResultsController(
                fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: \ResultsItem.group)
            try classic.performFetch()
            let classicTable = TableView(viewportHeight: 10)
            classicTable.register(TableViewCell.self, forCellReuseIdentifier: "Cell")
            let (rows, adapter, relay) = StoreAdapterTests.connectClassic(classic, to: classicTable)

            let diffable = FetchedResultsController(
                fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: \ResultsItem.group)
            let diffableTable = TableView(viewportHeight: 10)
            diffableTable.register(TableViewCell.self, forCellReuseIdentifier: "Cell")
            let dataSource = try StoreAdapterTests.connectDiffable(diffable, to: diffableTable, in: context)

            // Batches of every kind reach both tables before the owner lets go.
            let dog = ResultsItem(context: context)
            dog.name = "Dog"
            dog.group = 2
            try context.save()
            let fetched = try context.fetch(request)
            if let bee = fetched.first(where: { $0.name == "Bee" }) { bee.group = 0 }
            if let ant = fetched.first(where: { $0.name == "Ant" }) { context.delete(ant) }
            try context.save()
            #expect(classicTable.numberOfSections == classic.sections?.count)
            #expect(diffableTable.numberOfSections == classic.sections?.count)
            #expect(adapter.refusals == 0, "\(adapter.lastRefusal?.message ?? "")")
            #expect(dataSource.refusals == 0, "\(dataSource.lastRefusal?.message ?? "")")

            parts = Parts(
                container: container, context: context, classic: classic, diffable: diffable,
                classicTable: classicTable, diffableTable: diffableTable, adapter: adapter, relay: relay,
                rows: rows, dataSource: dataSource)
            #expect(parts.survivors.count == 10, "every part was alive while the screen was")
        }
        #expect(parts.survivors == [], "outlived their owner: \(parts.survivors)")
        #expect(StoreFileDescriptors.open(on: path) == [], "a connection outlived its container")
    }
}
