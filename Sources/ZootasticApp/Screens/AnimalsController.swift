import FolioAdapters
import FolioAppSupport
import FolioResults
import FolioStore
import FolioTable
import FolioTerminal
import Foundation

/// Zootastic's main screen: animals sectioned by classification order,
/// sorted by common name, in subtitle cells, with the section index; `+`
/// adds an animal through a form; swipe deletes. Every save — here or in
/// another process — reaches the table as a batch update.
@MainActor
final class AnimalsController: ResultsTableController<Animal>, TableViewEditingDataSource {
    private let container: PersistentContainer

    init(container: PersistentContainer) throws {
        self.container = container
        let results = FetchedResultsController(
            fetchRequest: Animal.listRequest, managedObjectContext: container.viewContext,
            sectionNameKeyPath: Animal.sectionKeyPath)
        try super.init(title: "Zootastic", results: results, cellStyle: .subtitle)
        showsSectionIndex = true
        emptyStateText = "No animals"
        selectionHint = "edit"
        searches([\Animal.commonName, \Animal.habitat])
        navigationItem.rightBarButtonItems = [BarButtonItem(system: .add) { [weak self] in self?.showAddForm() }]
    }

    override func configure(_ cell: TableViewCell, with animal: Animal) {
        cell.textLabel?.text = animal.commonName
        cell.detailTextLabel?.text = animal.habitat
    }

    func tableView(_ tableView: TableView, commit editingStyle: TableViewCell.EditingStyle, forRowAt indexPath: IndexPath) {
        guard editingStyle == .delete else { return }
        let animal = results.object(at: indexPath)
        confirmDeletion(
            of: animal, title: "Delete Animal",
            message: "Are you sure you want to permanently delete \(TextInput.shortened(animal.commonName))?")
    }

    /// Enter opens the animal in the same form; Done saves (a new order moves the row).
    override func didSelect(_ animal: Animal, at indexPath: IndexPath) {
        tableView.deselectRow(at: indexPath)
        let form = Self.animalForm(title: "Edit Animal", values: Self.formValues(of: animal))
        // Another program may delete or change the animal while the form is open.
        form.follow(animal, in: container.viewContext, noun: "animal") { object in
            (object as? Animal).map(Self.formValues(of:)) ?? [:]
        }
        form.onDone = { [weak self] form in self?.update(animal, from: form) }
        navigationController?.push(form)
    }

    private static func formValues(of animal: Animal) -> [String: String] {
        ["name": animal.commonName, "habitat": animal.habitat, "order": animal.classification?.order ?? ""]
    }

    private static func animalForm(title: String, values: [String: String] = [:]) -> FormController {
        FormController(
            title: title,
            sections: [
                .init(
                    title: "Animal",
                    fields: [
                        .text("name", "Common Name", placeholder: "e.g. Okapi"),
                        .text("habitat", "Habitat", placeholder: "e.g. Forest Exhibit"),
                        .text("order", "Order", placeholder: "e.g. Primates"),
                    ])
            ], values: values)
    }

    private func showAddForm() {
        let form = Self.animalForm(title: "Add Animal")
        form.onDone = { [weak self] form in self?.add(from: form) }
        navigationController?.push(form)
    }

    /// The form's text checked in its own words: a name and an order with a visible character.
    private static func checked(_ form: FormController) throws -> (name: String, habitat: String, order: String) {
        (
            try TextInput.visible(form.value("name"), field: "Common Name"), form.value("habitat"),
            try TextInput.visible(form.value("order"), field: "Order")
        )
    }

    private func update(_ animal: Animal, from form: FormController) {
        do {
            let typed = try Self.checked(form)
            // Only what the user changed: the rest keeps what the store has now.
            let changed = form.editedKeys
            let write = try ZooStore.updatingAnimal(
                animal, name: changed.contains("name") ? typed.name : nil,
                habitat: changed.contains("habitat") ? typed.habitat : nil,
                order: changed.contains("order") ? typed.order : nil,
                in: container.viewContext, checking: form.requireNoChangeElsewhere)
            form.save(in: container.viewContext, write) { [weak self, weak form] in
                form?.close()
                self?.highlight(animal)
            }
        } catch {
            form.presentSaveError(error)
        }
    }

    private func add(from form: FormController) {
        do {
            let typed = try Self.checked(form)
            let write = try ZooStore.addingAnimal(
                name: typed.name, habitat: typed.habitat, order: typed.order,
                to: container.viewContext)
            form.save(in: container.viewContext, write) { [weak self, weak form] animal in
                form?.close()
                self?.highlight(animal)
            }
        } catch {
            form.presentSaveError(error)
        }
    }
}
