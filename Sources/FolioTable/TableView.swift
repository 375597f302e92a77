import Foundation

/// A headless table view with UITableView's semantics: sections and rows
/// from a data source, cell reuse, batch updates validated as UIKit does,
/// selection, editing, swipe actions, reordering and a viewport measured in
/// lines. It draws nothing; a renderer (FolioTerminal) reads its layout and
/// the visible cells. Rule numbers in comments ("rule 1.6", "E13") are those
/// of docs/table-view-rules.md.
///
/// `TableView` is `@MainActor`-isolated, like its data source, delegate and
/// cells: the terminal and the apps run everything on the main actor.
///
/// ```swift
/// let table = TableView()
/// table.register(TableViewCell.self, forCellReuseIdentifier: "Planet")
/// table.dataSource = planets
/// table.viewportHeight = 20
/// table.reloadData()
/// for path in table.indexPathsForVisibleRows { draw(table.cellForRow(at: path)) }
/// ```
@MainActor
public final class TableView {
    /// Supplies sections, rows and cells. Held weakly, as in UIKit.
    ///
    /// ```swift
    /// table.dataSource = planets
    /// ```
    public weak var dataSource: (any TableViewDataSource)? {
        didSet { hasLoadedData = false; needsLayout = true }
    }
    /// Customises and observes the table. Held weakly, as in UIKit.
    ///
    /// ```swift
    /// table.delegate = controller
    /// ```
    public weak var delegate: (any TableViewDelegate)? {
        didSet { needsLayout = true }
    }
    /// The iOS wording of refusal messages; iOS 12's by default.
    ///
    /// ```swift
    /// table.messageDialect = .iOS13
    /// ```
    public var messageDialect: UpdateMessageDialect = .iOS12

    // Counts: the cached "before" counts of rule 1.12, never per-row arrays.
    var rowCounts: [Int] = []
    /// Whether the counts have been loaded from the data source.
    ///
    /// ```swift
    /// if !table.hasLoadedData { table.reloadData() }
    /// ```
    package internal(set) var hasLoadedData = false

    // Reuse.
    var registrations: [String: Registration] = [:]
    var reuseQueues: [String: [TableViewCell]] = [:]
    var visibleCells: [IndexPath: TableViewCell] = [:]
    /// How many cells the table has created so far (reuse keeps this near the visible count).
    ///
    /// ```swift
    /// assert(table.createdCellCount <= table.viewportHeight + 2)
    /// ```
    package internal(set) var createdCellCount = 0

    // Batch updates.
    var batchDepth = 0
    var pendingBatch = TableBatch()

    // Selection.
    /// Whether rows can be selected outside edit mode; true by default (rule 5.1).
    ///
    /// ```swift
    /// table.allowsSelection = false
    /// ```
    public var allowsSelection = true
    /// Whether rows can be selected in edit mode; false by default (rule 5.1).
    ///
    /// ```swift
    /// table.allowsSelectionDuringEditing = true
    /// ```
    public var allowsSelectionDuringEditing = false
    /// Whether several rows can be selected outside edit mode; false by default.
    ///
    /// ```swift
    /// table.allowsMultipleSelection = true
    /// ```
    public var allowsMultipleSelection = false
    /// Whether several rows can be selected in edit mode, which then shows
    /// checkmarks instead of editing controls (rule 3.6); false by default.
    ///
    /// ```swift
    /// table.allowsMultipleSelectionDuringEditing = true
    /// ```
    public var allowsMultipleSelectionDuringEditing = false
    var selectedRows: Set<IndexPath> = []
    /// The highlighted row: the cursor a terminal user moves.
    ///
    /// ```swift
    /// if let path = table.highlightedIndexPath { try table.selectRow(at: path) }
    /// ```
    public internal(set) var highlightedIndexPath: IndexPath?
    /// Whether loading data highlights the first row, as a terminal table opens; true by default.
    ///
    /// ```swift
    /// table.highlightsFirstRowOnLoad = false
    /// ```
    public var highlightsFirstRowOnLoad = true

    // Editing.
    /// Whether the table is in edit mode (rule 3.1). A swipe does not set it;
    /// see `swipedIndexPath` (rule 3.7).
    ///
    /// ```swift
    /// editButton.title = table.isEditing ? "Done" : "Edit"
    /// ```
    public internal(set) var isEditing = false
    /// The row whose delete confirmation is showing in edit mode (rule 3.4).
    ///
    /// ```swift
    /// if table.deleteConfirmationIndexPath == path { drawDeleteButton() }
    /// ```
    package internal(set) var deleteConfirmationIndexPath: IndexPath?
    /// The row whose swipe actions are revealed; at most one (rule 3.7).
    ///
    /// ```swift
    /// if table.swipedIndexPath == path { draw(table.revealedSwipeActions) }
    /// ```
    package internal(set) var swipedIndexPath: IndexPath?
    /// The revealed actions, outermost first (rule 3.10).
    ///
    /// ```swift
    /// let titles = table.revealedSwipeActions.map(\.title)
    /// ```
    package internal(set) var revealedSwipeActions: [ContextualAction] = []
    /// The index in `revealedSwipeActions` of the focused action.
    ///
    /// ```swift
    /// let focused = table.focusedSwipeActionIndex.map { table.revealedSwipeActions[$0] }
    /// ```
    package internal(set) var focusedSwipeActionIndex: Int?
    var swipeConfiguration: SwipeActionsConfiguration?

    // Reordering.
    /// The original path of the row being reordered by hand, if any.
    ///
    /// ```swift
    /// if table.reorderingSourceIndexPath != nil { drawDragging() }
    /// ```
    package internal(set) var reorderingSourceIndexPath: IndexPath?
    /// Where the row being reordered would land now (after-removal coordinates).
    ///
    /// ```swift
    /// let target = table.reorderingDestinationIndexPath
    /// ```
    package internal(set) var reorderingDestinationIndexPath: IndexPath?

    // Viewport.
    /// The viewport's height in lines.
    ///
    /// ```swift
    /// table.viewportHeight = terminalRows - 2
    /// ```
    public var viewportHeight: Int = 24 {
        didSet { precondition(viewportHeight >= 0, "viewportHeight \(viewportHeight) is negative"); needsLayout = true }
    }
    /// The height of a row in lines when the delegate gives none. By default
    /// ``automaticDimension``, as in UIKit: each row is as tall as its cell
    /// needs (``TableViewCell/fittingHeight``), so a subtitle cell takes two
    /// lines by itself. A number makes every row that tall.
    ///
    /// ```swift
    /// table.rowHeight = 1   // compact: a subtitle cell's detail follows its text on one line
    /// ```
    public var rowHeight: Int = TableView.automaticDimension { didSet { needsLayout = true } }
    /// The ``rowHeight`` (or delegate height) that asks each cell for its own height.
    ///
    /// ```swift
    /// table.rowHeight = TableView.automaticDimension
    /// ```
    public static let automaticDimension = -1
    /// What an automatic row off the screen is taken to need until its cell
    /// is made: the height of the last cell measured (UIKit's estimated height).
    var estimatedRowHeight = 1
    /// Heights of rows off screen measured while a row is revealed, so it is
    /// placed by them rather than the estimate (see `reveal`); empty otherwise.
    var measuredHeights: [IndexPath: Int] = [:]
    /// The height of a titled header when the delegate gives none; 1 by default.
    ///
    /// ```swift
    /// table.sectionHeaderHeight = 2
    /// ```
    public var sectionHeaderHeight: Int = 1 { didSet { needsLayout = true } }
    /// The height of a titled footer when the delegate gives none; 1 by default.
    ///
    /// ```swift
    /// table.sectionFooterHeight = 1
    /// ```
    public var sectionFooterHeight: Int = 1 { didSet { needsLayout = true } }
    /// Whether the top row stays in place when rows are inserted or deleted
    /// above it (rule 8.4's opt-in anchor); true by default.
    ///
    /// ```swift
    /// table.anchorsTopRowAcrossUpdates = false   // UIKit's sliding content
    /// ```
    public var anchorsTopRowAcrossUpdates = true
    var topItem: TableLayoutItem.Kind?
    /// Whether nothing with height came before `topItem` at the last layout,
    /// kept so a batch never asks the data source about the old layout.
    var topWasFirstVisible = true
    var needsLayout = true
    var cachedLayout: [TableLayoutItem] = []

    /// Creates an empty table; set a data source, then `reloadData()`.
    ///
    /// ```swift
    /// let table = TableView(viewportHeight: 10)
    /// ```
    public init(viewportHeight: Int = 24) {
        self.viewportHeight = viewportHeight
    }

    /// The number of sections, as last loaded (loads first if needed).
    ///
    /// ```swift
    /// for section in 0..<table.numberOfSections { print(table.numberOfRows(inSection: section)) }
    /// ```
    public var numberOfSections: Int {
        loadIfNeeded()
        return rowCounts.count
    }

    /// The number of rows in a section, as last loaded.
    ///
    /// ```swift
    /// let rows = table.numberOfRows(inSection: 0)
    /// ```
    public func numberOfRows(inSection section: Int) -> Int {
        loadIfNeeded()
        precondition(
            section >= 0 && section < rowCounts.count,
            "section \(section) out of range: the table has \(rowCounts.count) sections")
        return rowCounts[section]
    }

    /// Whether an index path names an existing row.
    ///
    /// ```swift
    /// if table.containsRow(at: path) { table.highlightRow(at: path) }
    /// ```
    public func containsRow(at indexPath: IndexPath) -> Bool {
        loadIfNeeded()
        return indexPath.section >= 0 && indexPath.section < rowCounts.count
            && indexPath.row >= 0 && indexPath.row < rowCounts[indexPath.section]
    }

    /// Re-reads every count from the data source and drops every cell,
    /// the selection (rule 5.7) and any pending batch (rule 1.14). The
    /// viewport keeps its top row, clamped if the content shrank (rule 8.1).
    ///
    /// - Complexity: O(sections + visible rows).
    ///
    /// ```swift
    /// table.reloadData()
    /// ```
    public func reloadData() {
        if batchDepth > 0 { pendingBatch = TableBatch() }
        endSwipe()
        deleteConfirmationIndexPath = nil
        cancelReordering()
        rowCounts = Self.queryCounts(dataSource, self)
        hasLoadedData = true
        selectedRows.removeAll()
        for (path, cell) in visibleCells { recycle(cell, at: path) }
        visibleCells.removeAll()
        if let highlighted = highlightedIndexPath, !containsRow(at: highlighted) {
            highlightedIndexPath = firstRow(atOrAfter: highlighted) ?? lastRow()
        }
        if highlightedIndexPath == nil, highlightsFirstRowOnLoad, let first = firstRow(atOrAfter: IndexPath(row: 0, section: 0)) {
            highlightedIndexPath = first
        }
        needsLayout = true
    }

    func loadIfNeeded() {
        if !hasLoadedData { reloadData() }
    }

    static func queryCounts(_ dataSource: (any TableViewDataSource)?, _ table: TableView) -> [Int] {
        guard let dataSource else { return [] }
        let sections = dataSource.numberOfSections(in: table)
        precondition(sections >= 0, "numberOfSections returned \(sections)")
        return (0..<sections).map { dataSource.tableView(table, numberOfRowsInSection: $0) }
    }
}
