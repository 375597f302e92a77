/// One row's view: labels, an accessory, and the state the table gives it.
///
/// Cells are created by the table from registered classes and reused as
/// rows scroll (UIKit rules 6.1–6.5). Subclass it for a custom cell: keep
/// `required init(style:reuseIdentifier:)`, and override `customLines()`
/// to draw your own lines instead of the built-in layouts.
///
/// ```swift
/// final class LocationCell: TableViewCell {
///     var place = ""
///     override func customLines() -> [String]? { [place] }
/// }
/// table.register(LocationCell.self, forCellReuseIdentifier: "Location")
/// ```
@MainActor
open class TableViewCell {
    /// The layout chosen at creation.
    ///
    /// ```swift
    /// if cell.style == .subtitle { drawTwoLines() }
    /// ```
    public let style: Style
    /// The identifier under which the table reuses this cell.
    ///
    /// ```swift
    /// cell.reuseIdentifier   // "Planet"
    /// ```
    public let reuseIdentifier: String?
    /// The main text; optional as in UIKit, present for every style.
    ///
    /// ```swift
    /// cell.textLabel?.text = "Mars"
    /// ```
    public var textLabel: CellLabel? = CellLabel()
    /// The secondary text; nil for the `.default` style (rule 6.4).
    ///
    /// ```swift
    /// cell.detailTextLabel?.text = "1.52 AU"
    /// ```
    public var detailTextLabel: CellLabel?
    /// The trailing decoration outside edit mode.
    ///
    /// ```swift
    /// cell.accessoryType = .checkmark
    /// ```
    public var accessoryType: AccessoryType = .none
    /// The trailing decoration in edit mode.
    ///
    /// ```swift
    /// cell.editingAccessoryType = .disclosureIndicator
    /// ```
    public var editingAccessoryType: AccessoryType = .none
    /// Whether the row is selected.
    ///
    /// ```swift
    /// if cell.isSelected { drawReversed() }
    /// ```
    public internal(set) var isSelected = false
    /// Whether the row is highlighted (the cursor row in a terminal).
    ///
    /// ```swift
    /// if cell.isHighlighted { drawCursor() }
    /// ```
    public internal(set) var isHighlighted = false
    /// Whether the cell shows its editing controls (rule 3.1).
    ///
    /// ```swift
    /// if cell.isEditing { drawEditingControl(cell.editingStyle) }
    /// ```
    public private(set) var isEditing = false
    /// The editing control the table assigned (rule 3.3: `.none` by default).
    ///
    /// ```swift
    /// if cell.editingStyle == .delete { drawDeleteMarker() }
    /// ```
    public internal(set) var editingStyle: EditingStyle = .none
    /// Whether a reorder handle is shown (rule 4.1).
    ///
    /// ```swift
    /// if cell.showsReorderControl { drawHandle() }
    /// ```
    public internal(set) var showsReorderControl = false
    /// Whether the delete confirmation button is showing (rule 3.4).
    ///
    /// ```swift
    /// if cell.showingDeleteConfirmation { drawDeleteButton() }
    /// ```
    public internal(set) var showingDeleteConfirmation = false
    /// How many times this cell was handed out again after reuse (for tests).
    ///
    /// ```swift
    /// assert(cell.reuseCount == 0)   // a new cell
    /// ```
    package internal(set) var reuseCount = 0

    /// Creates a cell with a style; subclasses must keep this initializer.
    ///
    /// ```swift
    /// let cell = TableViewCell(style: .value1, reuseIdentifier: "Setting")
    /// ```
    public required init(style: Style, reuseIdentifier: String?) {
        self.style = style
        self.reuseIdentifier = reuseIdentifier
        self.detailTextLabel = style == .default ? nil : CellLabel()
    }

    /// Called before a recycled cell is handed out again (rule 6.5); reset
    /// per-row state here. The table resets selection, highlight and editing.
    ///
    /// ```swift
    /// override func prepareForReuse() { super.prepareForReuse(); badge = nil }
    /// ```
    open func prepareForReuse() {}

    /// Shows or hides the editing controls; the table calls it for every
    /// visible cell when its own editing changes (rule 3.1).
    ///
    /// ```swift
    /// cell.setEditing(true, animated: false)
    /// ```
    open func setEditing(_ editing: Bool, animated: Bool) {
        isEditing = editing
    }

    /// Lines drawn instead of the built-in layout; nil (the default) keeps
    /// the style's layout. The custom-cell path.
    ///
    /// ```swift
    /// override func customLines() -> [String]? { [title, subtitle] }
    /// ```
    open func customLines() -> [String]? { nil }

    /// The lines the cell needs, for a table whose ``TableView/rowHeight`` is
    /// ``TableView/automaticDimension`` (the default): two for a subtitle
    /// cell with detail text (as UIKit sizes one), otherwise one. A custom
    /// cell whose ``customLines()`` should each have a line overrides it;
    /// on one line they are drawn one after another.
    ///
    /// ```swift
    /// cell.detailTextLabel?.text = "Forest"
    /// cell.fittingHeight   // 2 for a .subtitle cell
    /// override var fittingHeight: Int { 2 }   // a custom cell of two lines
    /// ```
    open var fittingHeight: Int {
        style == .subtitle && customLines() == nil && detailTextLabel?.text?.isEmpty == false ? 2 : 1
    }

    /// The accessory to draw now: `editingAccessoryType` while editing.
    ///
    /// ```swift
    /// if cell.currentAccessoryType == .checkmark { ... }
    /// ```
    package var currentAccessoryType: AccessoryType {
        isEditing ? editingAccessoryType : accessoryType
    }

    func resetStateForReuse() {
        isSelected = false
        isHighlighted = false
        isEditing = false
        editingStyle = .none
        showsReorderControl = false
        showingDeleteConfirmation = false
    }
}
