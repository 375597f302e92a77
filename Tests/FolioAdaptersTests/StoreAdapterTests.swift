import FolioAdapters
import FolioResults
import FolioStore
import FolioTable
import FolioTestSupport
import Foundation
import Testing

/// The app's delegate: hands each batch to the classic glue, whole.
@MainActor
final class StoreAdapterRelay: FetchedResultsControllerDelegate {
    let adapter: FetchedResultsTableAdapter
    init(_ adapter: FetchedResultsTableAdapter) { self.adapter = adapter }

    func controller(_ controller: AnyFetchedResultsController, didChangeContentWith changes: FetchedResultsChanges) {
        adapter.apply(changes)
    }
}

/// The classic data source: rows answered by the controller.
@MainActor
final class StoreAdapterRows: TableViewDataSource {
    let controller: FetchedResultsController<ResultsItem>
    init(_ controller: FetchedResultsController<ResultsItem>) { self.controller = controller }
    func numberOfSections(in tableView: TableView) -> Int { controller.sections?.count ?? 0 }
    func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int {
        controller.sections?[section].numberOfObjects ?? 0
    }
    func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell {
        let cell = tableView.dequeueReusableCell(withIdentifier: "Cell", for: indexPath)
        cell.textLabel?.text = StoreAdapterTests.text(controller.object(at: indexPath))
        return cell
    }
}

/// Both adapters fed by a real fetched results controller over a real
/// SQLite store, through random saves: zero refusals, and every visible
/// cell shows its object's current name and score.
@MainActor
struct StoreAdapterTests {
    static func text(_ item: ResultsItem) -> String { "\(item.name) \(item.score)" }

    /// Wires the classic glue as an app does: rows answered by `controller`,
    /// its batches applied by the adapter through a relay delegate.
    static func connectClassic(
        _ controller: FetchedResultsController<ResultsItem>, to table: TableView
    ) -> (StoreAdapterRows, FetchedResultsTableAdapter, StoreAdapterRelay) {
        let rows = StoreAdapterRows(controller)
        table.dataSource = rows
        table.reloadData()
        let adapter = FetchedResultsTableAdapter(tableView: table)
        let relay = StoreAdapterRelay(adapter)
        controller.delegate = relay
        return (rows, adapter, relay)
    }

    /// Wires a diffable data source to `controller` as an app does (the cell
    /// provider captures the context), fetches, and shows the first snapshot.
    static func connectDiffable(
        _ controller: FetchedResultsController<ResultsItem>, to table: TableView, in context: ObjectContext
    ) throws -> TableViewDiffableDataSource<SectionIdentifier, ObjectID> {
        let dataSource = TableViewDiffableDataSource<SectionIdentifier, ObjectID>(tableView: table) { table, path, id in
            let cell = table.dequeueReusableCell(withIdentifier: "Cell", for: path)
            cell.textLabel?.text = text(context.object(with: id, as: ResultsItem.self))
            return cell
        }
        controller.snapshotHandler = { snapshot in dataSource.apply(results: snapshot) }
        try controller.performFetch()
        if dataSource.snapshot().numberOfSections == 0 {
            dataSource.apply(TableSnapshot(controller.snapshot()))
        }
        return dataSource
    }

    private static func makeTable() -> TableView {
        let table = TableView(viewportHeight: 10)
        table.register(TableViewCell.self, forCellReuseIdentifier: "Cell")
        return table
    }

    @Test func bothAdapters_randomSavesThroughTheStore() async throws {
        let seed = StoreSplitMix64.seedFromEnvironment()
        print("seed:", seed)
        var random = StoreSplitMix64(seed: seed)
        let directory = try StoreTemporaryDirectory()
        let container = try PersistentContainer(schema: ResultsTestSchema.make(), path: directory.path("adapters.sqlite"))
        let context = container.viewContext
        var items: [ResultsItem] = []
        func newItem() {
            let item = ResultsItem(context: context)
            item.name = String(UnicodeScalar(UInt8(65 + Int.random(in: 0..<20, using: &random))))
            item.group = .random(in: 0..<4, using: &random)
            item.score = .random(in: 0..<5, using: &random)
            items.append(item)
        }
        for _ in 0..<25 { newItem() }
        try context.save()

        let request = FetchRequest<ResultsItem>(sortBy: [SortDescriptor(\.group), SortDescriptor(\.name)])
        let classic = FetchedResultsController(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: \ResultsItem.group)
        try classic.performFetch()
        let classicTable = Self.makeTable()
        let (rows, adapter, relay) = Self.connectClassic(classic, to: classicTable)

        let diffable = FetchedResultsController(
            fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: \ResultsItem.group)
        let diffableTable = Self.makeTable()
        let dataSource = try Self.connectDiffable(diffable, to: diffableTable, in: context)

        for round in 0..<150 {
            await Task.yield()  // a turn for the other main-actor tests
            for _ in 0..<Int.random(in: 1...5, using: &random) {
                guard let item = items.randomElement(using: &random) else { newItem(); continue }
                switch Int.random(in: 0..<6, using: &random) {
                case 0: newItem()
                case 1:
                    context.delete(item)
                    items.removeAll { $0 === item }
                case 2: item.name = String(UnicodeScalar(UInt8(65 + Int.random(in: 0..<20, using: &random))))
                case 3: item.group = .random(in: 0..<4, using: &random)
                default: item.score += 1
                }
            }
            try context.save()
            for (table, name) in [(classicTable, "classic"), (diffableTable, "diffable")] {
                table.scroll(byLines: .random(in: -4...4, using: &random))
                table.checkInvariants()
                #expect(table.numberOfSections == classic.sections?.count, "round \(round) \(name)")
                for path in table.indexPathsForVisibleRows {
                    #expect(
                        table.cellForRow(at: path)?.textLabel?.text == Self.text(classic.object(at: path)),
                        "round \(round) \(name): cell at \(path)")
                }
            }
        }
        #expect(adapter.refusals == 0, "\(adapter.lastRefusal?.message ?? "")")
        #expect(dataSource.refusals == 0, "\(dataSource.lastRefusal?.message ?? "")")
        withExtendedLifetime((rows, relay)) {}  // the table and the controller hold them weakly
    }
}
