import FolioAdapters
import FolioResults
import FolioStore
import FolioTable
import FolioTerminal
import FolioTestSupport
import Testing

// The README's tour of the libraries, compiled and run here so that it stays true.

final class Book: ManagedObject {
    @Managed var title: String
    @Managed var shelf: String

    override class var entity: EntityDescription {
        EntityDescription(Book.self, properties: [
            .attribute(\Book.title, "title", rules: [.notEmpty]),
            .attribute(\Book.shelf, "shelf", defaultValue: "", indexed: true),
        ])
    }
}

@MainActor
final class ShelvesController: TableViewController, TableViewDataSource {
    let results: FetchedResultsController<Book>
    let adapter: FetchedResultsTableAdapter

    init(context: ObjectContext) throws {
        results = FetchedResultsController(
            fetchRequest: FetchRequest(sortBy: [SortDescriptor(\Book.shelf), SortDescriptor(\Book.title)]),
            managedObjectContext: context, sectionNameKeyPath: \Book.shelf)
        let table = TableView()
        adapter = FetchedResultsTableAdapter(tableView: table)  // holds the table weakly
        super.init(title: "Shelves", tableView: table)
        tableView.register(TableViewCell.self, forCellReuseIdentifier: "Book")
        tableView.dataSource = self
        results.delegate = self
        try results.performFetch()
    }

    func numberOfSections(in tableView: TableView) -> Int { results.sections?.count ?? 0 }
    func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int {
        results.sections?[section].numberOfObjects ?? 0
    }
    func tableView(_ tableView: TableView, titleForHeaderInSection section: Int) -> String? {
        results.sections?[section].name
    }
    func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell {
        let cell = tableView.dequeueReusableCell(withIdentifier: "Book", for: indexPath)
        cell.textLabel?.text = results.object(at: indexPath).title
        return cell
    }
}

// Every change report becomes one batch update of the table.
extension ShelvesController: FetchedResultsControllerDelegate {
    func controller(_ controller: AnyFetchedResultsController, didChangeContentWith changes: FetchedResultsChanges) {
        adapter.apply(changes)
    }
}

@MainActor
@Suite struct ReadmeTourTests {
    @Test func theTourRunsAndTheTableFollowsTheStore() throws {
        let container = try PersistentContainer(schema: Schema([Book.self]), path: nil)
        let context = container.viewContext
        let dune = Book(context: context)
        dune.title = "Dune"
        dune.shelf = "Fiction"
        try context.save()

        let shelves = try ShelvesController(context: context)
        let driver = TerminalRecordingDriver(columns: 40, rows: 10)
        let app = Application(root: NavigationController(root: shelves), driver: driver)
        app.render()
        #expect(driver.screen.text.contains("Dune"))

        let sicp = Book(context: context)
        sicp.title = "SICP"
        sicp.shelf = "Computing"
        try context.save()
        app.render()
        #expect(driver.screen.text.contains("Computing"))
        #expect(shelves.adapter.refusals == 0)
        #expect(shelves.tableView.numberOfSections == 2)
    }
}
