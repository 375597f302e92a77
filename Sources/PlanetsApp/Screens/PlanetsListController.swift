import FolioAdapters
import FolioAppSupport
import FolioResults
import FolioStore
import FolioTable
import FolioTerminal
import Foundation

/// The Planets screen: the saved list of planets; swipe (or `d`) to delete
/// through the "Delete Planet" action sheet; Edit to delete and reorder.
///
/// ```swift
/// let screen = try PlanetsListController(container: try PlanetsStore.open(at: url))
/// try await Application.run(NavigationController(root: screen))
/// ```
@MainActor
final class PlanetsListController: ResultsTableController<Planet>, TableViewEditingDataSource, TableViewReorderingDataSource {
    private let container: PersistentContainer

    init(container: PersistentContainer) throws {
        self.container = container
        let results = FetchedResultsController(fetchRequest: Planet.listRequest, managedObjectContext: container.viewContext)
        try super.init(title: "Planets", results: results)
        emptyStateText = "No planets"
        searches([\Planet.name])
        navigationItem.rightBarButtonItems = [editButtonItem]
    }

    override func configure(_ cell: TableViewCell, with planet: Planet) {
        cell.textLabel?.text = planet.name
    }

    /// Swipe's Delete and edit mode's Delete both ask first, as the seed does.
    func tableView(_ tableView: TableView, commit editingStyle: TableViewCell.EditingStyle, forRowAt indexPath: IndexPath) {
        guard editingStyle == .delete else { return }
        let planet = results.object(at: indexPath)
        confirmDeletion(
            of: planet, title: "Delete Planet",
            message: "Are you sure you want to permanently delete \(TextInput.shortened(planet.name))?")
    }

    /// Rows move only in the whole list: positions are renumbered over every planet.
    func tableView(_ tableView: TableView, canMoveRowAt indexPath: IndexPath) -> Bool {
        searchText.isEmpty
    }

    /// Reordering shows the new order at once and saves it when the store
    /// can be written (the screen keeps taking keys meanwhile); a refused
    /// save puts the rows back and says why.
    func tableView(_ tableView: TableView, moveRowAt sourceIndexPath: IndexPath, to destinationIndexPath: IndexPath) {
        let context = container.viewContext
        let ordered = results.fetchedObjects ?? []
        results.withUserDrivenChanges {
            PlanetsStore.move(ordered, from: sourceIndexPath.row, to: destinationIndexPath.row)
        }
        let app = application
        // The new positions are already in the context: the save writes them.
        saveWhenWritable(context, {}) { [weak self] result in
            guard case .failure(let error) = result else { return }
            self?.presentWhereShown(error: error, title: "Order Not Saved", application: app)
        }
    }
}
