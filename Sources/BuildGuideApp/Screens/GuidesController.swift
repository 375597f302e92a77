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
        navigationItem.rightBarButtonItems = [BarButtonItem(system: .add) { [weak self] in self?.addGuide() }]
    }

    override func configure(_ cell: TableViewCell, with guide: Guide) {
        cell.textLabel.text = guide.name
        cell.detailTextLabel?.text = guide.race?.name ?? ""
        cell.accessoryType = .disclosureIndicator
    }

    override func didSelect(_ guide: Guide, at indexPath: IndexPath) {
        tableView.deselectRow(at: indexPath)
        open(guide)
    }

    func tableView(_ tableView: TableView, commit editingStyle: TableViewCell.EditingStyle, forRowAt indexPath: IndexPath) {
        guard editingStyle == .delete else { return }
        deleteAndSave(results.object(at: indexPath))
    }

    private func addGuide() {
        do {
            let defaults = SampleData.newGuide
            let guide = try BuildGuideStore.addGuide(named: defaults.name, race: defaults.race,
                                                     to: container.viewContext, at: storeURL)
            highlight(guide)
            open(guide)
        } catch {
            showHUD("\(error)")
        }
    }

    private func open(_ guide: Guide) {
        navigationController?.push(GuideEditorController(guide: guide, container: container, storeURL: storeURL))
    }
}
