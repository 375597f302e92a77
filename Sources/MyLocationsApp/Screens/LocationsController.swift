import FolioAdapters
import FolioAppSupport
import FolioResults
import FolioStore
import FolioTable
import FolioTerminal
import Foundation

/// The Locations tab: locations sectioned by category in the custom cell;
/// Enter opens "Edit Location" (Done saves and shows "Updated"); swipe
/// deletes; Edit for mass editing.
@MainActor
final class LocationsController: ResultsTableController<Location>, TableViewEditingDataSource {
    private let container: PersistentContainer

    init(container: PersistentContainer) throws {
        self.container = container
        let results = FetchedResultsController(
            fetchRequest: Location.listRequest, managedObjectContext: container.viewContext,
            sectionNameKeyPath: Location.sectionKeyPath)
        try super.init(title: "Locations", results: results, cellType: LocationCell.self)
        emptyStateText = "No locations"
        selectionHint = "edit"
        searches([\Location.locationDescription, \Location.address])
        navigationItem.rightBarButtonItems = [editButtonItem]
    }

    override func configure(_ cell: TableViewCell, with location: Location) {
        guard let cell = cell as? LocationCell else { return }
        cell.title = location.titleLine
        cell.detail = location.detailLine
    }

    override func didSelect(_ location: Location, at indexPath: IndexPath) {
        tableView.deselectRow(at: indexPath)
        let form = LocationForm.make(title: "Edit Location", values: LocationForm.values(of: location))
        // Another program may delete or change the location while the form is open.
        form.follow(location, in: container.viewContext, noun: "location") { object in
            (object as? Location).map(LocationForm.values(of:)) ?? [:]
        }
        form.onDone = { [weak self, weak form] _ in
            guard let self, let form else { return }
            self.update(location, from: form)
        }
        navigationController?.push(form)
    }

    func tableView(_ tableView: TableView, commit editingStyle: TableViewCell.EditingStyle, forRowAt indexPath: IndexPath) {
        guard editingStyle == .delete else { return }
        let location = results.object(at: indexPath)
        confirmDeletion(
            of: location, title: "Delete Location",
            message: "Are you sure you want to permanently delete “\(TextInput.shortened(location.titleLine))”?")
    }

    private func update(_ location: Location, from form: FormController) {
        do {
            let input = try LocationForm.input(from: form)
            // Only what the user changed: the rest keeps what the store has now.
            let changed = form.editedKeys
            form.save(
                in: container.viewContext,
                {
                    try form.requireNoChangeElsewhere()
                    LocationForm.write(input, changed, to: location)
                }
            ) { [weak self, weak form] in
                form?.close()
                self?.highlight(location)
                self?.showHUD("Updated")
            }
        } catch {
            form.presentSaveError(error)
        }
    }
}
