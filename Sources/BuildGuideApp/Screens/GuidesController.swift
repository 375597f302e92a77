import FolioAppSupport
import FolioResults
import FolioStore
import FolioTable
import FolioTerminal
import Foundation

/// BuildGuide's list of guides (name, race): `+` adds one and opens it,
/// Enter opens the editor, swipe deletes.
@MainActor
final class GuidesController: ResultsTableController<Guide>, TableViewEditingDataSource {
    private let container: PersistentContainer
    private let storeURL: URL

    init(container: PersistentContainer, storeURL: URL) throws {
        self.container = container
        self.storeURL = storeURL
        let results = FetchedResultsController(fetchRequest: Guide.listRequest, managedObjectContext: container.viewContext)
        try super.init(title: "Guides", results: results, cellStyle: .value1)
        emptyStateText = "No guides"
        selectionHint = "open"
        searches([\Guide.name])
        navigationItem.rightBarButtonItems = [BarButtonItem(system: .add) { [weak self] in self?.addGuide() }]
    }

    override func configure(_ cell: TableViewCell, with guide: Guide) {
        cell.textLabel?.text = guide.name
        cell.detailTextLabel?.text = guide.race?.name ?? ""
        cell.accessoryType = .disclosureIndicator
    }

    override func didSelect(_ guide: Guide, at indexPath: IndexPath) {
        tableView.deselectRow(at: indexPath)
        open(guide)
    }

    /// Deleting a guide takes its build order with it, so it asks first, saying so.
    func tableView(_ tableView: TableView, commit editingStyle: TableViewCell.EditingStyle, forRowAt indexPath: IndexPath) {
        guard editingStyle == .delete else { return }
        let guide = results.object(at: indexPath)
        let steps = guide.units.count
        let buildOrder = steps == 0 ? "" : " and its build order of \(steps) unit\(steps == 1 ? "" : "s")"
        confirmDeletion(of: guide, title: "Delete Guide",
                        message: "Are you sure you want to permanently delete \(guide.name)\(buildOrder)?")
    }

    /// `+`: a new guide under the tutorial's default name ("Test Guide",
    /// numbered when taken) with no race yet, so that "Add a Unit" asks for
    /// one first as the tutorial's alert does; it opens in the editor.
    private func addGuide() {
        do {
            // Every guide's name, not only those a search shows.
            let taken = Set(try container.viewContext.fetch(Guide.listRequest).map(\.name))
            let base = SampleData.newGuide.name
            var name = base
            var number = 2
            while taken.contains(name) {
                name = "\(base) \(number)"
                number += 1
            }
            let guide = try BuildGuideStore.addGuide(named: name, race: nil, to: container.viewContext, at: storeURL)
            highlight(guide)
            open(guide)
        } catch {
            presentError(title: "Guide Not Added", message: ErrorText.sentence(for: error))
        }
    }

    private func open(_ guide: Guide) {
        navigationController?.push(GuideEditorController(guide: guide, container: container, storeURL: storeURL))
    }
}
