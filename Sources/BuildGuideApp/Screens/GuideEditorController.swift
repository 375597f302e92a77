import FolioAppSupport
import FolioStore
import FolioTable
import FolioTerminal
import Foundation

/// The guide editor: static and dynamic sections in one table, always in
/// editing mode with selection allowed. "Guide Details" (name field, race
/// picker), "Build Order" (deletable, reorderable only within itself) and
/// "Actions" ("Add a Unit"). The name field edits without leaving editing
/// mode. Every change is saved at once.
@MainActor
final class GuideEditorController: TableViewController, TableViewEditingDataSource, TableViewReorderingDataSource,
    TableViewDelegate {
    enum Section: Int, CaseIterable {
        case details, buildOrder, actions

        var title: String? {
            switch self {
            case .details: "Guide Details"
            case .buildOrder: "Build Order"
            case .actions: "Actions"
            }
        }
    }

    let guide: Guide
    private let container: PersistentContainer
    private let storeURL: URL
    private var observation: ObservationToken?

    init(guide: Guide, container: PersistentContainer, storeURL: URL) {
        self.guide = guide
        self.container = container
        self.storeURL = storeURL
        super.init(title: guide.name)
        tableView.register(forCellReuseIdentifier: "Name") { TextFieldCell(style: .default, reuseIdentifier: $0) }
        tableView.register(forCellReuseIdentifier: "Race") { TableViewCell(style: .value1, reuseIdentifier: $0) }
        tableView.register(forCellReuseIdentifier: "Unit") { TableViewCell(style: .value1, reuseIdentifier: $0) }
        tableView.register(forCellReuseIdentifier: "Action") { TableViewCell(style: .default, reuseIdentifier: $0) }
        tableView.dataSource = self
        tableView.delegate = self
        tableView.allowsSelectionDuringEditing = true
        setEditing(true)
        observation = container.viewContext.observeChanges { [weak self] changes in
            guard let self, changes.origin == .otherContext || changes.origin == .otherProcess else { return }
            self.followExternalChange(changes)
        }
    }

    /// Another process (or context) changed the store: show the guide as it
    /// is now, or, when it is gone, go back to the list (past any picker
    /// pushed on top) and say so.
    private func followExternalChange(_ changes: ChangeSet) {
        guard (try? container.viewContext.existingObject(with: guide.objectID)) != nil, !guide.isDeleted else {
            observation = nil
            guard let navigation = navigationController,
                  let index = navigation.viewControllers.firstIndex(where: { $0 === self }), index > 0 else { return }
            navigation.pop(to: navigation.viewControllers[index - 1])
            navigation.presentError(title: "Guide Deleted", message: "Another program deleted this guide while it was open.")
            return
        }
        title = guide.name
        tableView.reloadData()
        setNeedsDisplay()
    }

    /// What Enter does on each row.
    override func enterHint(forRowAt indexPath: IndexPath) -> String? {
        switch (Section(rawValue: indexPath.section), indexPath.row) {
        case (.details?, 0): super.enterHint(forRowAt: indexPath)
        case (.details?, _): "choose the race"
        case (.actions?, _): "add a unit"
        default: nil
        }
    }

    // MARK: Data source

    func numberOfSections(in tableView: TableView) -> Int { Section.allCases.count }

    func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int {
        switch Section(rawValue: section)! {
        case .details: 2
        case .buildOrder: guide.units.count
        case .actions: 1
        }
    }

    func tableView(_ tableView: TableView, titleForHeaderInSection section: Int) -> String? {
        Section(rawValue: section)?.title
    }

    func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell {
        switch (Section(rawValue: indexPath.section)!, indexPath.row) {
        case (.details, 0):
            let cell = tableView.dequeueReusableCell(withIdentifier: "Name", for: indexPath)
            guard let field = cell as? TextFieldCell else { return cell }
            field.textLabel?.text = "Name"
            field.placeholder = "Guide name"
            if !field.isEditingText { field.text = guide.name }
            field.onCommit = { [weak self] text in self?.rename(to: text) }
            return field
        case (.details, _):
            let cell = tableView.dequeueReusableCell(withIdentifier: "Race", for: indexPath)
            cell.textLabel?.text = "Race"
            cell.detailTextLabel?.text = guide.race?.name ?? ""
            cell.accessoryType = .disclosureIndicator
            cell.editingAccessoryType = .disclosureIndicator
            return cell
        case (.buildOrder, let row):
            let cell = tableView.dequeueReusableCell(withIdentifier: "Unit", for: indexPath)
            let unit = guide.units[row]
            cell.textLabel?.text = unit.name
            cell.detailTextLabel?.text = unit.type
            return cell
        case (.actions, _):
            let cell = tableView.dequeueReusableCell(withIdentifier: "Action", for: indexPath)
            cell.textLabel?.text = "Add a Unit"
            return cell
        }
    }

    func tableView(_ tableView: TableView, canEditRowAt indexPath: IndexPath) -> Bool {
        indexPath.section == Section.buildOrder.rawValue
    }

    func tableView(_ tableView: TableView, canMoveRowAt indexPath: IndexPath) -> Bool {
        indexPath.section == Section.buildOrder.rawValue
    }

    func tableView(_ tableView: TableView, commit editingStyle: TableViewCell.EditingStyle, forRowAt indexPath: IndexPath) {
        guard editingStyle == .delete, indexPath.section == Section.buildOrder.rawValue else { return }
        let unit = guide.units[indexPath.row]
        // The row goes only when the delete was saved.
        if save(as: "Unit Not Deleted", { self.container.viewContext.delete(unit) }) {
            tableView.deleteRows(at: [indexPath])
        } else {
            tableView.reloadData()
        }
    }

    func tableView(_ tableView: TableView, moveRowAt sourceIndexPath: IndexPath, to destinationIndexPath: IndexPath) {
        var units = guide.units
        units.insert(units.remove(at: sourceIndexPath.row), at: destinationIndexPath.row)
        if !save(as: "Order Not Saved", { self.guide.units = units }) { tableView.reloadData() }
    }

    // MARK: Delegate

    func tableView(_ tableView: TableView, editingStyleForRowAt indexPath: IndexPath) -> TableViewCell.EditingStyle {
        indexPath.section == Section.buildOrder.rawValue ? .delete : .none
    }

    /// A unit dragged out of "Build Order" stays in it: at its first row when
    /// dragged above, at its last when dragged below.
    func tableView(_ tableView: TableView, targetIndexPathForMoveFromRowAt sourceIndexPath: IndexPath,
                   toProposedIndexPath proposedDestinationIndexPath: IndexPath) -> IndexPath {
        if proposedDestinationIndexPath.section < sourceIndexPath.section {
            return IndexPath(row: 0, section: sourceIndexPath.section)
        }
        if proposedDestinationIndexPath.section > sourceIndexPath.section {
            let last = self.tableView(tableView, numberOfRowsInSection: sourceIndexPath.section) - 1
            return IndexPath(row: last, section: sourceIndexPath.section)
        }
        return proposedDestinationIndexPath
    }

    func tableView(_ tableView: TableView, didSelectRowAt indexPath: IndexPath) {
        tableView.deselectRow(at: indexPath)
        switch (Section(rawValue: indexPath.section)!, indexPath.row) {
        case (.details, 0):
            break  // the name field: selecting it starts editing, in edit mode
        case (.details, _):
            pickRace()
        case (.actions, _):
            addUnit()
        case (.buildOrder, _):
            break
        }
    }

    // MARK: Actions

    private func rename(to text: String) {
        let old = guide.name
        do {
            let name = try TextInput.visible(text, field: "Name")
            if name != old, save(as: "Name Not Changed", { self.guide.name = name }) { title = guide.name }
        } catch {
            presentError(title: "Name Not Changed", message: "A guide needs a name with a visible character; it is still “\(old)”.")
        }
        tableView.reloadData()
    }

    private func pickRace() {
        let picker = PickerController(title: "Select Race", items: SampleData.races.map(\.name), selected: guide.race?.name)
        picker.onChoose = { [weak self] name in
            guard let self else { return }
            self.navigationController?.pop()
            self.changeRace(to: name)
        }
        navigationController?.push(picker)
    }

    /// A new race: a build order holding another race's units would be
    /// wrong, so it asks first and then removes them in the same save.
    private func changeRace(to name: String) {
        guard name != guide.race?.name else { return }
        guard let race = try? BuildGuideStore.race(named: name, in: container.viewContext) else {
            return presentError(title: "Race Not Changed", message: "There is no race named \(name).")
        }
        let steps = guide.units
        guard !steps.isEmpty else {
            save(as: "Race Not Changed") { self.guide.race = race }
            return tableView.reloadData()
        }
        let old = guide.race?.name ?? "another race"
        let sheet = AlertController(
            title: "Change Race",
            message: "Changing \(guide.name) to \(name) removes its build order: \(steps.count) \(old) unit\(steps.count == 1 ? "" : "s").",
            preferredStyle: .actionSheet)
        sheet.addAction(AlertAction(title: "Change to \(name)", style: .destructive) { [weak self] _ in
            guard let self else { return }
            self.save(as: "Race Not Changed") {
                for step in self.guide.units { self.container.viewContext.delete(step) }
                self.guide.race = race
            }
            self.tableView.reloadData()
        })
        sheet.addAction(AlertAction(title: "Cancel", style: .cancel))
        present(sheet)
    }

    private func addUnit() {
        guard let race = guide.race?.name, let catalogue = SampleData.races.first(where: { $0.name == race }) else {
            let alert = AlertController(title: "Race not selected", message: "Please select a race first", preferredStyle: .alert)
            alert.addAction(AlertAction(title: "OK", style: .cancel))
            present(alert)
            return
        }
        let picker = PickerController(title: "Select Unit", items: catalogue.units.map(\.name), details: catalogue.units.map(\.type))
        picker.onChoose = { [weak self] name in
            guard let self else { return }
            do {
                try BuildGuideStore.addUnit(name, to: self.guide, in: self.container.viewContext, at: self.storeURL)
                let row = self.guide.units.count - 1
                let path = IndexPath(row: row, section: Section.buildOrder.rawValue)
                self.tableView.insertRows(at: [path])
                self.tableView.highlightRow(at: path)
                self.navigationController?.pop()
            } catch {
                self.navigationController?.pop()
                self.presentError(title: "Unit Not Added", message: ErrorText.sentence(for: error))
            }
        }
        navigationController?.push(picker)
    }

    /// Saves `change`; on failure nothing is written and an error titled
    /// `title` says why. Returns whether it was saved.
    @discardableResult
    private func save(as title: String, _ change: () -> Void) -> Bool {
        do {
            try AppStore.save(container.viewContext, at: storeURL, change)
            return true
        } catch {
            presentError(title: title, message: ErrorText.sentence(for: error))
            return false
        }
    }
}
