import FolioResults
import FolioStore
import FolioTable
import FolioTerminal
import Foundation

// The README's tour, copied as a newcomer would copy it. This target has no
// package access and imports only the public products, so anything here that
// compiles is public API.

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

// "What a Core Data developer should know": relationships.

final class Category: ManagedObject {
    @Managed var name: String
    @Managed var items: Set<Item>  // [Item] for an ordered to-many
    override class var entity: EntityDescription {
        EntityDescription(
            Category.self,
            properties: [
                .attribute(\Category.name, "name", unique: true),
                .toMany(\Category.items, "items", inverse: \Item.category, deleteRule: .cascade),
            ])
    }
}

final class Item: ManagedObject {
    @Managed var name: String
    @Managed var category: Category?  // `Category` (not optional): required, checked at save
    override class var entity: EntityDescription {
        EntityDescription(
            Item.self,
            properties: [
                .attribute(\Item.name, "name"),
                .toOne(\Item.category, "category", inverse: \Category.items),
            ])
    }
}

// "Testing a screen without a terminal".

final class TestTerminal: TerminalDriver {
    let size = TerminalSize(columns: 40, rows: 12)
    var screen = Screen(width: 40, height: 12)
    func present(_ screen: Screen) { self.screen = screen }
    var text: String { (0..<size.rows).map { screen.line($0) }.joined(separator: "\n") }
}
