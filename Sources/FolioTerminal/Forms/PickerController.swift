import FolioTable

/// A list to choose one item from (a category, a race, a unit): the current
/// choice has a checkmark; Enter chooses and calls ``onChoose``.
///
/// ```swift
/// let picker = PickerController(title: "Choose Category", items: categories, selected: "Bar")
/// picker.onChoose = { name in form.setValue(name, for: "category"); navigation.pop() }
/// navigation.push(picker)
/// ```
@MainActor
public final class PickerController: TableViewController, TableViewDataSource, TableViewDelegate {
    /// The items, in order.
    public let items: [String]
    /// Secondary text per item (e.g. a unit's type), if any.
    public let details: [String]?
    /// The current choice.
    public private(set) var selected: String?
    /// Called with the chosen item.
    ///
    /// ```swift
    /// picker.onChoose = { race in form.setValue(race, for: "race") }
    /// ```
    public var onChoose: ((String) -> Void)?

    /// A picker over `items`, with `selected` checked and highlighted.
    ///
    /// ```swift
    /// PickerController(title: "Choose Unit", items: ["Probe", "Zealot"], details: ["worker", "army"])
    /// ```
    public init(title: String, items: [String], details: [String]? = nil, selected: String? = nil) {
        self.items = items
        self.details = details
        self.selected = selected
        super.init(title: title)
        let style: TableViewCell.Style = details == nil ? .default : .value1
        tableView.register(forCellReuseIdentifier: "Item") { TableViewCell(style: style, reuseIdentifier: $0) }
        tableView.dataSource = self
        tableView.delegate = self
    }

    /// Passes the call to the screen shown.
    override public func viewWillAppear() {
        super.viewWillAppear()
        if let selected, let row = items.firstIndex(of: selected) {
            tableView.highlightRow(at: IndexPath(row: row, section: 0))
        }
    }

    /// The number of rows in a section.
    public func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int { items.count }

    /// The cell for a row, configured from its data.
    public func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell {
        let cell = tableView.dequeueReusableCell(withIdentifier: "Item", for: indexPath)
        cell.textLabel?.text = items[indexPath.row]
        cell.detailTextLabel?.text = details?[indexPath.row]
        cell.accessoryType = items[indexPath.row] == selected ? .checkmark : .none
        return cell
    }

    /// Enter chooses the row.
    override public func enterHint(forRowAt indexPath: IndexPath) -> String? { "choose" }

    /// The user selected a row.
    public func tableView(_ tableView: TableView, didSelectRowAt indexPath: IndexPath) {
        tableView.deselectRow(at: indexPath)
        selected = items[indexPath.row]
        onChoose?(items[indexPath.row])
    }
}
