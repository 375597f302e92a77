import FolioTable
import FolioTerminal

/// A form and a gallery of cell styles for the kit's tests.
@MainActor
final class FormFixture: TableViewController, TableViewDataSource, TableViewDelegate {
    var name = "Zerg"
    var commits: [String] = []
    var selections: [IndexPath] = []

    init() {
        super.init(title: "Guide")
        tableView.register(TextFieldCell.self, forCellReuseIdentifier: "Field")
        tableView.register(forCellReuseIdentifier: "Subtitle") { TableViewCell(style: .subtitle, reuseIdentifier: $0) }
        tableView.register(forCellReuseIdentifier: "Value1") { TableViewCell(style: .value1, reuseIdentifier: $0) }
        tableView.register(forCellReuseIdentifier: "Value2") { TableViewCell(style: .value2, reuseIdentifier: $0) }
        tableView.register(forCellReuseIdentifier: "Custom") { CustomCell(style: .default, reuseIdentifier: $0) }
        tableView.register(TableViewCell.self, forCellReuseIdentifier: "Plain")
        tableView.dataSource = self
        tableView.delegate = self
    }

    func numberOfSections(in tableView: TableView) -> Int { 3 }
    func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int { [2, 4, 2][section] }
    func tableView(_ tableView: TableView, titleForHeaderInSection section: Int) -> String? {
        ["Guide Details", "Styles", "Custom"][section]
    }
    func tableView(_ tableView: TableView, heightForRowAt indexPath: IndexPath) -> Int? {
        indexPath == IndexPath(row: 1, section: 2) ? 2 : nil
    }

    func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell {
        switch (indexPath.section, indexPath.row) {
        case (0, 0):
            let cell = tableView.dequeueReusableCell(withIdentifier: "Field", for: indexPath) as! TextFieldCell
            cell.textLabel?.text = "Name"
            cell.text = name
            cell.placeholder = "Guide name"
            cell.onCommit = { [weak self] in
                self?.name = $0
                self?.commits.append($0)
            }
            return cell
        case (0, 1):
            let cell = tableView.dequeueReusableCell(withIdentifier: "Value1", for: indexPath)
            cell.textLabel?.text = "Race"
            cell.detailTextLabel?.text = "Protoss"
            cell.accessoryType = .disclosureIndicator
            return cell
        case (1, 0):
            let cell = tableView.dequeueReusableCell(withIdentifier: "Subtitle", for: indexPath)
            cell.textLabel?.text = "Lion"
            cell.detailTextLabel?.text = "Savanna"
            return cell
        case (1, 1):
            let cell = tableView.dequeueReusableCell(withIdentifier: "Value2", for: indexPath)
            cell.textLabel?.text = "37.33233141"
            cell.detailTextLabel?.text = "Latitude"
            return cell
        case (1, 2):
            let cell = tableView.dequeueReusableCell(withIdentifier: "Plain", for: indexPath)
            cell.textLabel?.text = "Checked 日本語 👩‍👩‍👧‍👦 e\u{301}"
            cell.accessoryType = .checkmark
            return cell
        case (1, 3):
            let cell = tableView.dequeueReusableCell(withIdentifier: "Plain", for: indexPath)
            cell.textLabel?.text = "Info"
            cell.accessoryType = .detailDisclosureButton
            return cell
        default:
            let cell = tableView.dequeueReusableCell(withIdentifier: "Custom", for: indexPath) as! CustomCell
            cell.lines =
                indexPath.row == 0
                ? ["(No Description)", "Lat: 37.33233141, Long: -122.03121860"]
                : ["Apple Park", "One Apple Park Way"]
            return cell
        }
    }

    func tableView(_ tableView: TableView, didSelectRowAt indexPath: IndexPath) {
        selections.append(indexPath)
    }

    var detailTaps: [IndexPath] = []
    func tableView(_ tableView: TableView, accessoryButtonTappedForRowWith indexPath: IndexPath) {
        detailTaps.append(indexPath)
    }
}

/// A custom cell: its own lines.
@MainActor
final class CustomCell: TableViewCell {
    var lines: [String] = []
    override func customLines() -> [String]? { lines }
}
