import FolioTable
import FolioTerminal

/// A small table screen for the kit's tests: planets in two sections, with
/// swipe-to-delete confirmed by an action sheet, reordering, and a detail
/// screen pushed on selection.
@MainActor
final class PlanetsFixture: TableViewController, TableViewEditingDataSource, TableViewReorderingDataSource, TableViewDelegate {
    var sections: [(title: String, planets: [String])]
    var log: [String] = []

    init(sections: [(title: String, planets: [String])] = PlanetsFixture.solarSystem) {
        self.sections = sections
        super.init(title: "Planets")
        tableView.register(TableViewCell.self, forCellReuseIdentifier: "Planet")
        tableView.dataSource = self
        tableView.delegate = self
        navigationItem.rightBarButtonItems = [editButtonItem, BarButtonItem(system: .add) { [weak self] in self?.add() }]
        emptyStateText = "No planets"
    }

    static let solarSystem: [(title: String, planets: [String])] = [
        ("Inner", ["Mercury", "Venus", "Earth", "Mars"]),
        ("Outer", ["Jupiter", "Saturn", "Uranus", "Neptune"]),
    ]

    func numberOfSections(in tableView: TableView) -> Int { sections.count }
    func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int { sections[section].planets.count }
    func tableView(_ tableView: TableView, titleForHeaderInSection section: Int) -> String? { sections[section].title }

    func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell {
        let cell = tableView.dequeueReusableCell(withIdentifier: "Planet", for: indexPath)
        cell.textLabel?.text = sections[indexPath.section].planets[indexPath.row]
        cell.accessoryType = .disclosureIndicator
        return cell
    }

    func tableView(_ tableView: TableView, didSelectRowAt indexPath: IndexPath) {
        let name = sections[indexPath.section].planets[indexPath.row]
        log.append("select \(name)")
        tableView.deselectRow(at: indexPath)
        navigationController?.push(ViewController(title: name))
    }

    func tableView(_ tableView: TableView, trailingSwipeActionsConfigurationForRowAt indexPath: IndexPath) -> SwipeActionsConfiguration? {
        let delete = ContextualAction(style: .destructive, title: "Delete") { [weak self] _, completion in
            self?.confirmDelete(at: indexPath)
            completion(true)
        }
        let more = ContextualAction(style: .normal, title: "More") { [weak self] _, completion in
            self?.log.append("more \(indexPath)")
            completion(true)
        }
        return SwipeActionsConfiguration(actions: [delete, more])
    }

    func tableView(_ tableView: TableView, commit editingStyle: TableViewCell.EditingStyle, forRowAt indexPath: IndexPath) {
        guard editingStyle == .delete else { return }
        delete(at: indexPath)
    }

    func tableView(_ tableView: TableView, moveRowAt sourceIndexPath: IndexPath, to destinationIndexPath: IndexPath) {
        let name = sections[sourceIndexPath.section].planets.remove(at: sourceIndexPath.row)
        sections[destinationIndexPath.section].planets.insert(name, at: destinationIndexPath.row)
        log.append("move \(name) \(sourceIndexPath) -> \(destinationIndexPath)")
    }

    func confirmDelete(at indexPath: IndexPath) {
        let name = sections[indexPath.section].planets[indexPath.row]
        let sheet = AlertController(
            title: "Delete Planet",
            message: "Are you sure you want to permanently delete \(name)?", preferredStyle: .actionSheet)
        sheet.addAction(AlertAction(title: "Delete", style: .destructive) { [weak self] _ in self?.delete(at: indexPath) })
        sheet.addAction(AlertAction(title: "Cancel", style: .cancel) { [weak self] _ in self?.log.append("cancel") })
        present(sheet)
    }

    func delete(at indexPath: IndexPath) {
        let name = sections[indexPath.section].planets.remove(at: indexPath.row)
        log.append("delete \(name)")
        tableView.deleteRows(at: [indexPath])
        showHUD("Deleted")
    }

    func add() {
        sections[0].planets.insert("Vulcan", at: 0)
        log.append("add")
        tableView.insertRows(at: [IndexPath(row: 0, section: 0)])
    }
}
