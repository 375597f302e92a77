import FolioTable

/// A screen showing a FolioTable `TableView`: section headers, cells in every
/// style, the highlighted row, swipe actions, edit mode, reordering, text
/// fields and an empty-state line. Keys and mouse follow docs/architecture.md,
/// "Terminal interaction".
///
/// Feed it like UIKit's `UITableViewController`: a subclass is its own data
/// source and delegate, or any object is set on `tableView`.
/// ```swift
/// final class PlanetsController: TableViewController, TableViewEditingDataSource, TableViewDelegate {
///     var planets = ["Mercury", "Venus", "Earth"]
///     init() {
///         super.init(title: "Planets")
///         tableView.register(TableViewCell.self, forCellReuseIdentifier: "Planet")
///         tableView.dataSource = self
///         tableView.delegate = self
///         navigationItem.rightBarButtonItems = [editButtonItem]
///     }
///     func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int { planets.count }
///     func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell {
///         let cell = tableView.dequeueReusableCell(withIdentifier: "Planet", for: indexPath)
///         cell.textLabel?.text = planets[indexPath.row]
///         cell.accessoryType = .disclosureIndicator
///         return cell
///     }
///     func tableView(_ tableView: TableView, didSelectRowAt indexPath: IndexPath) {
///         navigationController?.push(PlanetDetailController(name: planets[indexPath.row]))
///     }
///     func tableView(_ tableView: TableView, commit editingStyle: TableViewCell.EditingStyle, forRowAt indexPath: IndexPath) {
///         planets.remove(at: indexPath.row)
///         tableView.deleteRows(at: [indexPath])
///     }
/// }
/// try await Application.run(NavigationController(root: PlanetsController()))
/// ```
@MainActor
open class TableViewController: ViewController {
    /// The table drawn; its viewport follows the screen's height.
    ///
    /// ```swift
    /// controller.tableView.register(TableViewCell.self, forCellReuseIdentifier: "Row")
    /// ```
    public let tableView: TableView
    /// The line shown when the table has no rows.
    ///
    /// ```swift
    /// controller.emptyStateText = "No planets"
    /// ```
    public var emptyStateText = "No items"
    /// The theme the table is drawn with.
    public var theme = Theme.standard
    /// The text field being edited and its row.
    var textEditor: TextField?
    var textEditorPath: IndexPath?
    /// The row whose text field the user is typing in, if any (UIKit: the
    /// first responder's cell). What it shows is the user's, not the data's.
    ///
    /// ```swift
    /// if controller.editingTextIndexPath == path { return }  // keep what is being typed
    /// ```
    public var editingTextIndexPath: IndexPath? { textEditorPath }
    /// Where a mouse press started, for clicks and leftward drags.
    var pressStart: (column: Int, row: Int, path: IndexPath?, swiped: Bool)?
    /// Row rectangles and action buttons last drawn, for clicks.
    var rowFrames: [(Rect, IndexPath)] = []
    /// Header and footer titles last drawn, for the debug state's rows on screen.
    var titleFrames: [(Rect, header: Bool, title: String)] = []
    /// The rectangle the rows were last drawn in (the section index aside).
    var rowsRect = Rect(x: 0, y: 0, width: 0, height: 0)
    var actionFrames: [(Rect, Int)] = []
    var confirmationFrame: Rect?
    var indexFrames: [(Rect, Int)] = []
    var detailButtonFrames: [(Rect, IndexPath)] = []
    /// Where the showing actions were revealed (see `keepRevealedActionsOnHighlight`).
    var revealedActionsAt: IndexPath?
    /// Whether `/` opens a search field above the table (see ``searchTextDidChange(_:)``).
    ///
    /// ```swift
    /// controller.isSearchable = true
    /// ```
    public var isSearchable = false
    /// The filter in force: what the search field holds ("" when none).
    public internal(set) var searchText = ""
    /// The search field while it takes keys.
    var searchEditor: TextField?
    /// Whether `searchText` changed since the screen last narrowed its rows.
    var searchIsPending = false

    /// Creates a table screen.
    ///
    /// ```swift
    /// let controller = TableViewController(title: "Zoos")
    /// controller.tableView.dataSource = zoos
    /// ```
    public init(title: String = "", tableView: TableView = TableView()) {
        self.tableView = tableView
        super.init(title: title)
    }

    /// Edit mode for the controller and its table (the Edit/Done button).
    ///
    /// ```swift
    /// controller.setEditing(true) // delete markers and reorder handles
    /// ```
    override open func setEditing(_ editing: Bool) {
        endTextEditing(commit: true)
        tableView.setEditing(editing, animated: false)
        super.setEditing(editing)
    }

    /// What Enter does on a row, for the hint bar and help, or nil when it
    /// does nothing there (no Enter hint is shown). By default: "edit text"
    /// on a text field that selecting starts, "select" where the table
    /// allows selection now; override to name it ("open", "choose").
    ///
    /// ```swift
    /// override func enterHint(forRowAt indexPath: IndexPath) -> String? { "open" }
    /// ```
    open func enterHint(forRowAt indexPath: IndexPath) -> String? {
        if textFieldsSelectable, tableView.cellForRow(at: indexPath) is TextFieldCell { return "edit text" }
        let selectable = tableView.isEditing ? tableView.allowsSelectionDuringEditing : tableView.allowsSelection
        guard selectable else { return nil }
        return tableView.isEditing && tableView.allowsMultipleSelectionDuringEditing ? "check" : "select"
    }

    /// Whether a text-field cell is taking keys.
    override open var isEditingText: Bool { textEditor != nil || searchEditor != nil }

    /// Draws the visible part of the table into `rect`.
    ///
    /// - Complexity: O(visible rows), independent of the table's size.
    override open func draw(into screen: inout Screen, in rect: Rect) {
        applyPendingSearch()
        drawTable(into: &screen, in: drawSearchLine(into: &screen, in: rect))
    }

    /// The search text changed: narrow the table to the rows matching
    /// `text` ("" shows every row). Called for each keystroke in the search
    /// field (keys read together are one call, for the text after the last
    /// of them), and with "" when Esc clears it; the table should follow by a
    /// batch update (not a reload) so that the highlight keeps its row.
    ///
    /// ```swift
    /// override func searchTextDidChange(_ text: String) {
    ///     shown = text.isEmpty ? all : all.filter { $0.localizedStandardContains(text) }
    ///     tableView.reloadData()
    /// }
    /// ```
    open func searchTextDidChange(_ text: String) {}

    /// The search field opens (`/`), before its first keystroke: a screen
    /// readies what its search needs, so that no keystroke pays for it.
    ///
    /// ```swift
    /// override func searchWillBegin() { index = SearchIndex(all) }
    /// ```
    open func searchWillBegin() {}

    /// The search field closed with no filter in force: what
    /// ``searchWillBegin()`` readied can go.
    ///
    /// ```swift
    /// override func searchDidEnd() { index = nil }
    /// ```
    open func searchDidEnd() {}

    /// Table keys and mouse gestures (see the type's documentation).
    ///
    /// ```swift
    /// controller.handle(.key(Key(.left))) // reveals the highlighted row's actions
    /// ```
    override open func handle(_ event: InputEvent) -> Bool {
        handleTableEvent(event)
    }

    /// The keys that work on the table now.
    override open var keyHints: [KeyHint] { tableKeyHints }

    /// Loads the table the first time it appears.
    override open func viewWillAppear() {
        if !tableView.hasLoadedData { tableView.reloadData() }
    }
}
