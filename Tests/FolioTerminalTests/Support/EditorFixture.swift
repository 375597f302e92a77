import FolioTable
import FolioTerminal

/// An editor always in edit mode, like BuildGuide's: a Name text field above
/// a build order whose rows can be deleted and reordered.
@MainActor
final class EditorFixture: TableViewController, TableViewEditingDataSource, TableViewReorderingDataSource, TableViewDelegate {
    var name = "Zerg"
    var units = ["Drone", "Overlord", "Zergling"]
    var commits: [String] = []
    var selections: [IndexPath] = []

    init(selectionDuringEditing: Bool = true) {
        super.init(title: "Editor")
        tableView.register(TextFieldCell.self, forCellReuseIdentifier: "Field")
        tableView.register(TableViewCell.self, forCellReuseIdentifier: "Unit")
        tableView.dataSource = self
        tableView.delegate = self
        tableView.allowsSelectionDuringEditing = selectionDuringEditing
        navigationItem.rightBarButtonItems = [editButtonItem]
        setEditing(true)
    }

    func numberOfSections(in tableView: TableView) -> Int { 2 }
    func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int { section == 0 ? 1 : units.count }
    func tableView(_ tableView: TableView, titleForHeaderInSection section: Int) -> String? {
        ["Guide Details", "Build Order"][section]
    }

    func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell {
        guard indexPath.section == 1 else {
            let cell = tableView.dequeueReusableCell(withIdentifier: "Field", for: indexPath) as! TextFieldCell
            cell.textLabel?.text = "Name"
            if !cell.isEditingText { cell.text = name }
            cell.onCommit = { [weak self] in
                self?.name = $0
                self?.commits.append($0)
            }
            return cell
        }
        let cell = tableView.dequeueReusableCell(withIdentifier: "Unit", for: indexPath)
        cell.textLabel?.text = units[indexPath.row]
        return cell
    }

    func tableView(_ tableView: TableView, canEditRowAt indexPath: IndexPath) -> Bool { indexPath.section == 1 }
    func tableView(_ tableView: TableView, canMoveRowAt indexPath: IndexPath) -> Bool { indexPath.section == 1 }

    func tableView(_ tableView: TableView, commit editingStyle: TableViewCell.EditingStyle, forRowAt indexPath: IndexPath) {
        units.remove(at: indexPath.row)
        tableView.deleteRows(at: [indexPath])
    }

    func tableView(_ tableView: TableView, moveRowAt sourceIndexPath: IndexPath, to destinationIndexPath: IndexPath) {
        units.insert(units.remove(at: sourceIndexPath.row), at: destinationIndexPath.row)
    }

    func tableView(_ tableView: TableView, didSelectRowAt indexPath: IndexPath) {
        selections.append(indexPath)
    }
}
