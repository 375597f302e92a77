import FolioAdapters
import FolioAppSupport
import FolioResults
import FolioStore
import FolioTable
import FolioTerminal
import Foundation

/// BuildGuide's list of guides (name, race): `+` opens a new guide in the
/// editor, Enter opens one, swipe deletes.
@MainActor
final class GuidesController: ResultsTableController<Guide>, TableViewEditingDataSource {
    private let container: PersistentContainer

    init(container: PersistentContainer) throws {
        self.container = container
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
        confirmDeletion(
            of: guide, title: "Delete Guide",
            message: "Are you sure you want to permanently delete \(TextInput.shortened(guide.name))\(buildOrder)?")
    }

    /// `+`: a new guide under the tutorial's default name ("Test Guide",
    /// numbered when taken) with no race yet, so that "Add a Unit" asks for
    /// one first as the tutorial's alert does; Done saves it, Esc discards it.
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
            let form = GuideForm.make(title: "Add Guide", values: ["name": name, "race": ""], units: [])
            form.onDone = { [weak self] form in self?.add(from: form) }
            navigationController?.push(form)
        } catch {
            presentError(title: "Guide Not Added", message: ErrorText.sentence(for: error))
        }
    }

    /// Enter: the guide in the editor, following it (another program may change or delete it).
    private func open(_ guide: Guide) {
        let form = GuideForm.make(
            title: "Edit Guide", values: GuideForm.values(of: guide), units: GuideForm.lists(of: guide)["units"] ?? [])
        form.follow(
            guide, in: container.viewContext, noun: "guide",
            values: { ($0 as? Guide).map(GuideForm.values(of:)) ?? [:] },
            lists: { ($0 as? Guide).map(GuideForm.lists(of:)) ?? [:] })
        form.onDone = { [weak self] form in self?.update(guide, from: form) }
        navigationController?.push(form)
    }

    private func add(from form: FormController) {
        do {
            let name = try TextInput.visible(form.value("name"), field: "Name")
            let race = form.value("race")
            let write = try BuildGuideStore.addingGuide(
                named: name, race: race.isEmpty ? nil : race, units: form.items("units"),
                to: container.viewContext)
            form.save(in: container.viewContext, write) { [weak self, weak form] guide in
                form?.close()
                self?.highlight(guide)
            }
        } catch {
            form.presentSaveError(error)
        }
    }

    private func update(_ guide: Guide, from form: FormController) {
        do {
            let name = try TextInput.visible(form.value("name"), field: "Name")
            // Only what the user changed: the rest keeps what the store has now.
            let changed = form.editedKeys
            let race = form.value("race")
            let write = try BuildGuideStore.updatingGuide(
                guide, name: changed.contains("name") ? name : nil,
                race: changed.contains("race") && !race.isEmpty ? race : nil,
                units: changed.contains("units") ? form.items("units") : nil,
                in: container.viewContext, checking: form.requireNoChangeElsewhere)
            form.save(in: container.viewContext, write) { [weak self, weak form] in
                form?.close()
                self?.highlight(guide)
            }
        } catch {
            form.presentSaveError(error)
        }
    }
}
