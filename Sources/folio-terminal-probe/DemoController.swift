import FolioTable
import FolioTerminal

/// A small Planets-like table for trying the kit in a real terminal.
@MainActor
final class DemoController: TableViewController, TableViewDataSource, TableViewReorderingDataSource, TableViewDelegate {
    var sections: [(String, [String])] = [
        ("Inner", ["Mercury", "Venus", "Earth", "Mars"]),
        ("Outer", ["Jupiter", "Saturn", "Uranus", "Neptune"]),
        ("Dwarf", ["Ceres", "Pluto", "Haumea", "Makemake", "Eris", "冥王星 (Pluto)", "👩‍🚀 Astronaut", "Evil \u{1B}[2J name"]),
    ]

    static func makeRoot() -> ViewController {
        let planets = DemoController()
        let form = FormDemoController()
        return TabBarController(tabs: [NavigationController(root: planets), NavigationController(root: form)])
    }

    init() {
        super.init(title: "Planets")
        tableView.register(TableViewCell.self, forCellReuseIdentifier: "Planet")
        tableView.dataSource = self
        tableView.delegate = self
        navigationItem.rightBarButtonItems = [editButtonItem, BarButtonItem(system: .add) { [weak self] in self?.add() }]
    }

    func numberOfSections(in tableView: TableView) -> Int { sections.count }
    func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int { sections[section].1.count }
    func tableView(_ tableView: TableView, titleForHeaderInSection section: Int) -> String? { sections[section].0 }

    func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell {
        let cell = tableView.dequeueReusableCell(withIdentifier: "Planet", for: indexPath)
        cell.textLabel?.text = sections[indexPath.section].1[indexPath.row]
        cell.accessoryType = .disclosureIndicator
        return cell
    }

    func tableView(_ tableView: TableView, didSelectRowAt indexPath: IndexPath) {
        tableView.deselectRow(at: indexPath)
        navigationController?.push(ViewController(title: sections[indexPath.section].1[indexPath.row]))
    }

    func tableView(_ tableView: TableView, commit editingStyle: TableViewCell.EditingStyle, forRowAt indexPath: IndexPath) {
        let name = sections[indexPath.section].1[indexPath.row]
        let sheet = AlertController(
            title: "Delete Planet",
            message: "Are you sure you want to permanently delete \(name)?", preferredStyle: .actionSheet)
        sheet.addAction(
            AlertAction(title: "Delete", style: .destructive) { [weak self] _ in
                guard let self else { return }
                sections[indexPath.section].1.remove(at: indexPath.row)
                tableView.deleteRows(at: [indexPath])
                showHUD("Deleted")
            })
        sheet.addAction(AlertAction(title: "Cancel", style: .cancel))
        present(sheet)
    }

    func tableView(_ tableView: TableView, moveRowAt sourceIndexPath: IndexPath, to destinationIndexPath: IndexPath) {
        let name = sections[sourceIndexPath.section].1.remove(at: sourceIndexPath.row)
        sections[destinationIndexPath.section].1.insert(name, at: destinationIndexPath.row)
    }

    func add() {
        sections[0].1.insert("Vulcan", at: 0)
        tableView.insertRows(at: [IndexPath(row: 0, section: 0)])
    }
}

/// A form with a text field and value cells.
@MainActor
final class FormDemoController: TableViewController, TableViewDataSource, TableViewDelegate {
    var name = ""

    init() {
        super.init(title: "Tag")
        tableView.register(TextFieldCell.self, forCellReuseIdentifier: "Field")
        tableView.register(forCellReuseIdentifier: "Value") { TableViewCell(style: .value1, reuseIdentifier: $0) }
        tableView.dataSource = self
        tableView.delegate = self
        navigationItem.rightBarButtonItems = [BarButtonItem(system: .done) { [weak self] in self?.showHUD("Tagged") }]
    }

    func numberOfSections(in tableView: TableView) -> Int { 2 }
    func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int { section == 0 ? 1 : 2 }
    func tableView(_ tableView: TableView, titleForHeaderInSection section: Int) -> String? { section == 0 ? "Description" : "Where" }

    func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell {
        if indexPath.section == 0 {
            let cell = tableView.dequeueReusableCell(withIdentifier: "Field", for: indexPath)
            if let field = cell as? TextFieldCell {
                field.text = name
                field.placeholder = "Description"
                field.onCommit = { [weak self] in self?.name = $0 }
            }
            return cell
        }
        let cell = tableView.dequeueReusableCell(withIdentifier: "Value", for: indexPath)
        cell.textLabel?.text = indexPath.row == 0 ? "Latitude" : "Longitude"
        cell.detailTextLabel?.text = indexPath.row == 0 ? "37.33233141" : "-122.03121860"
        return cell
    }
}
