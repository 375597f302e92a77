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
        EntityDescription(
            Book.self,
            properties: [
                .attribute(\Book.title, "title", rules: [.notEmpty]),
                .attribute(\Book.shelf, "shelf", defaultValue: "", indexed: true),
            ])
    }
}

final class ShelvesController: TableViewController, TableViewDataSource, FetchedResultsControllerDelegate {
    var context: ObjectContext!

    lazy var fetchedResultsController: FetchedResultsController<Book> = {
        let request = FetchRequest<Book>(sortBy: [SortDescriptor(\Book.shelf), SortDescriptor(\Book.title)])
        let controller = FetchedResultsController(
            fetchRequest: request, managedObjectContext: context,
            sectionNameKeyPath: \Book.shelf, cacheName: nil)
        controller.delegate = self
        return controller
    }()

    override func viewDidLoad() {
        super.viewDidLoad()
        title = "Shelves"
        tableView.register(TableViewCell.self, forCellReuseIdentifier: "Book")
        tableView.dataSource = self
        do {
            try fetchedResultsController.performFetch()
        } catch {
            print("Could not fetch: \(error)")
        }
    }

    func numberOfSections(in tableView: TableView) -> Int {
        fetchedResultsController.sections?.count ?? 0
    }
    func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int {
        fetchedResultsController.sections?[section].numberOfObjects ?? 0
    }
    func tableView(_ tableView: TableView, titleForHeaderInSection section: Int) -> String? {
        fetchedResultsController.sections?[section].name
    }
    func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell {
        let cell = tableView.dequeueReusableCell(withIdentifier: "Book", for: indexPath)
        cell.textLabel?.text = fetchedResultsController.object(at: indexPath).title
        return cell
    }

    func controllerWillChangeContent(_ controller: AnyFetchedResultsController) {
        tableView.beginUpdates()
    }
    func controller(
        _ controller: AnyFetchedResultsController, didChange sectionInfo: FetchedResultsSectionInfo,
        atSectionIndex sectionIndex: Int, for type: ResultsChangeType
    ) {
        switch type {
        case .insert: tableView.insertSections(IndexSet(integer: sectionIndex), with: .fade)
        case .delete: tableView.deleteSections(IndexSet(integer: sectionIndex), with: .fade)
        default: break
        }
    }
    func controller(
        _ controller: AnyFetchedResultsController, didChange anObject: Any, at indexPath: IndexPath?,
        for type: ResultsChangeType, newIndexPath: IndexPath?
    ) {
        switch type {
        case .insert: tableView.insertRows(at: [newIndexPath!], with: .fade)
        case .delete: tableView.deleteRows(at: [indexPath!], with: .fade)
        case .move: tableView.moveRow(at: indexPath!, to: newIndexPath!)
        case .update: tableView.reloadRows(at: [indexPath!], with: .none)
        }
    }
    func controllerDidChangeContent(_ controller: AnyFetchedResultsController) {
        tableView.endUpdates()
    }
}

@MainActor
@Suite struct ReadmeTourTests {
    @Test func theTourRunsAndTheTableFollowsTheStore() throws {
        let container = try PersistentContainer(schema: Schema([Book.self]), path: nil)
        container.viewContext.mergePolicy = .mergeByPropertyObjectTrump  // a save meeting another's change keeps the keys it changed
        let context = container.viewContext
        let dune = Book(context: context)
        dune.title = "Dune"
        dune.shelf = "Fiction"
        try context.save()

        let shelves = ShelvesController()
        shelves.context = context
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
        #expect(shelves.tableView.numberOfSections == 2)
    }
}
