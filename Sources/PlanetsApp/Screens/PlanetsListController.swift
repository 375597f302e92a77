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
        confirmDeletion(of: planet, title: "Delete Planet",
                        message: "Are you sure you want to permanently delete \(planet.name)?")
    }

    /// Rows move only in the whole list: positions are renumbered over every planet.
    func tableView(_ tableView: TableView, canMoveRowAt indexPath: IndexPath) -> Bool {
        searchText.isEmpty
    }

    /// Reordering saves the new order without the results echoing the move.
    func tableView(_ tableView: TableView, moveRowAt sourceIndexPath: IndexPath, to destinationIndexPath: IndexPath) {
        let context = container.viewContext
        results.withUserDrivenChanges {
            PlanetsStore.move(results.fetchedObjects ?? [], from: sourceIndexPath.row, to: destinationIndexPath.row)
            do {
                try context.save()
            } catch {
                context.rollback()
                presentError(title: "Order Not Saved", message: ErrorText.sentence(for: error))
            }
        }
    }
}
