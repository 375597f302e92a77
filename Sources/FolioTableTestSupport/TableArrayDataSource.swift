import FolioTable

/// A data source over sections of strings, for table tests: one cell per
/// string (reuse identifier "Cell"), optional header titles, committing
/// deletes and inserts to its model and the table, and reordering rows.
///
/// ```swift
/// let source = TableArrayDataSource([["a", "b"], ["c"]])
/// let table = source.makeTable(viewportHeight: 10)
/// ```
@MainActor
public final class TableArrayDataSource: TableViewEditingDataSource, TableViewReorderingDataSource {
    /// The model: rows per section.
    public var sections: [[String]]
    /// Header titles per section; nil or missing means none.
    public var headers: [String?] = []
    /// Footer titles per section; nil or missing means none.
    public var footers: [String?] = []
    /// Rows that refuse editing.
    public var uneditable: Set<IndexPath> = []
    /// Rows that refuse moving.
    public var unmovable: Set<IndexPath> = []
    /// Every data-source call that changes or commits, in order, e.g. "commit delete [0, 1]".
    public private(set) var log: [String] = []
    /// How many times `cellForRowAt` was called.
    public private(set) var cellRequests = 0
    /// Index titles for the section index strip.
    public var indexTitles: [String]?

    /// Creates the source: `TableArrayDataSource([["Mercury", "Venus"]])`.
    public init(_ sections: [[String]]) {
        self.sections = sections
    }

    /// A table wired to this source with a "Cell" registration, loaded.
    public func makeTable(viewportHeight: Int = 24) -> TableView {
        let table = TableView(viewportHeight: viewportHeight)
        table.register(forCellReuseIdentifier: "Cell") { TableViewCell(style: .subtitle, reuseIdentifier: $0) }
        table.dataSource = self
        table.reloadData()
        return table
    }

    /// The model's text at a path.
    public subscript(_ path: IndexPath) -> String { sections[path.section][path.row] }

    /// Answered from `sections` (data-source requirement).
    public func numberOfSections(in tableView: TableView) -> Int { sections.count }

    /// Answered from `sections` (data-source requirement).
    public func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int { sections[section].count }

    /// Answered from `sections` (data-source requirement).
    public func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell {
        cellRequests += 1
        let cell = tableView.dequeueReusableCell(withIdentifier: "Cell", for: indexPath)
        cell.textLabel?.text = self[indexPath]
        return cell
    }

    /// Answered from `sections` (data-source requirement).
    public func tableView(_ tableView: TableView, titleForHeaderInSection section: Int) -> String? {
        section < headers.count ? headers[section] : nil
    }

    /// Answered from `sections` (data-source requirement).
    public func tableView(_ tableView: TableView, titleForFooterInSection section: Int) -> String? {
        section < footers.count ? footers[section] : nil
    }

    /// Answered from `sections` (data-source requirement).
    public func tableView(_ tableView: TableView, canEditRowAt indexPath: IndexPath) -> Bool {
        !uneditable.contains(indexPath)
    }

    /// Answered from `sections` (data-source requirement).
    public func sectionIndexTitles(for tableView: TableView) -> [String]? { indexTitles }

    /// Answered from `sections` (data-source requirement).
    public func tableView(_ tableView: TableView, commit editingStyle: TableViewCell.EditingStyle, forRowAt indexPath: IndexPath) {
        log.append("commit \(editingStyle) \(indexPath)")
        switch editingStyle {
        case .delete:
            sections[indexPath.section].remove(at: indexPath.row)
            tableView.deleteRows(at: [indexPath])
        case .insert:
            sections[indexPath.section].insert("new", at: indexPath.row)
            tableView.insertRows(at: [indexPath])
        case .none:
            break
        }
    }

    /// Answered from `sections` (data-source requirement).
    public func tableView(_ tableView: TableView, canMoveRowAt indexPath: IndexPath) -> Bool {
        !unmovable.contains(indexPath)
    }

    /// Answered from `sections` (data-source requirement).
    public func tableView(_ tableView: TableView, moveRowAt sourceIndexPath: IndexPath, to destinationIndexPath: IndexPath) {
        log.append("move \(sourceIndexPath) -> \(destinationIndexPath)")
        let item = sections[sourceIndexPath.section].remove(at: sourceIndexPath.row)
        sections[destinationIndexPath.section].insert(item, at: destinationIndexPath.row)
    }
}
