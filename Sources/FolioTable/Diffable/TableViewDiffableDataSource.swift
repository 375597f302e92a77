import FolioChanges

/// A data source that holds a `TableSnapshot` and updates its table by
/// diffing each new snapshot against the current one. Cells come from a
/// closure given the item identifier. Subclass it to add headers,
/// editing (`TableViewEditingDataSource`) or reordering.
///
/// ```swift
/// let dataSource = TableViewDiffableDataSource<String, Int>(tableView: table) { table, path, id in
///     let cell = table.dequeueReusableCell(withIdentifier: "Animal", for: path)
///     cell.textLabel?.text = animals[id]?.name
///     return cell
/// }
/// dataSource.apply(snapshot)
/// ```
@MainActor
open class TableViewDiffableDataSource<SectionID: Hashable & Sendable, ItemID: Hashable & Sendable>: TableViewDataSource {
    /// Makes the cell for an item.
    ///
    /// ```swift
    /// let provider: TableViewDiffableDataSource<String, Int>.CellProvider = { table, path, id in table.dequeueReusableCell(withIdentifier: "Cell", for: path) }
    /// ```
    public typealias CellProvider = @MainActor (TableView, IndexPath, ItemID) -> TableViewCell

    /// The table it feeds (held weakly; the table holds this weakly too, so keep a reference).
    ///
    /// ```swift
    /// dataSource.tableView?.setEditing(true)
    /// ```
    public private(set) weak var tableView: TableView?
    private let cellProvider: CellProvider
    private var current = TableSnapshot<SectionID, ItemID>()
    private var paths: [ItemID: IndexPath] = [:]
    /// Header titles by section identifier; nil shows none.
    ///
    /// ```swift
    /// dataSource.headerTitle = { section in section }
    /// ```
    public var headerTitle: (@MainActor (SectionID) -> String?)?
    /// How many applied snapshots the table refused (zero unless the table was changed behind its back).
    ///
    /// ```swift
    /// assert(dataSource.refusals == 0)
    /// ```
    public private(set) var refusals = 0
    /// The last refusal, if any; the table was reloaded after it.
    ///
    /// ```swift
    /// if let error = dataSource.lastRefusal { print(error.message) }
    /// ```
    public private(set) var lastRefusal: TableUpdateError?

    /// Becomes the table's data source.
    ///
    /// ```swift
    /// let dataSource = TableViewDiffableDataSource<String, Int>(tableView: table) { t, p, id in t.dequeueReusableCell(withIdentifier: "Cell", for: p) }
    /// ```
    public init(tableView: TableView, cellProvider: @escaping CellProvider) {
        self.tableView = tableView
        self.cellProvider = cellProvider
        tableView.dataSource = self
    }

    /// The current content.
    ///
    /// ```swift
    /// var next = dataSource.snapshot()
    /// ```
    public func snapshot() -> TableSnapshot<SectionID, ItemID> { current.contentOnly }

    /// Shows a new snapshot: the difference becomes one batch; reconfigured
    /// items get their cells again. A refusal reloads the table instead.
    ///
    /// ```swift
    /// var next = dataSource.snapshot()
    /// next.deleteItems([id])
    /// dataSource.apply(next)
    /// ```
    ///
    /// - Complexity: O(n log n) in the snapshot's size for the difference,
    ///   plus O(changes + sections + visible rows) for the table.
    public func apply(_ snapshot: TableSnapshot<SectionID, ItemID>, animatingDifferences: Bool = true) {
        let (batch, reconfigure) = snapshot.batch(from: current)
        current = snapshot.contentOnly
        paths = current.pathsByItem()
        guard let tableView else { return }
        do {
            try tableView.apply(batch)
            tableView.reconfigureRows(at: reconfigure)
        } catch {
            refusals += 1
            lastRefusal = error
            tableView.reloadData()
        }
    }

    /// Shows a fetched results controller's snapshot (its section
    /// identifiers as section identifiers), then asks again for every visible cell: the
    /// snapshot marks only changed items that stayed in place, and the
    /// controller may have reported as moved an item the difference keeps.
    ///
    /// ```swift
    /// controller.snapshotHandler = { snapshot in dataSource.apply(results: snapshot) }
    /// ```
    ///
    /// - Complexity: as `apply(_:)`, plus O(visible rows).
    public func apply(results: ResultsSnapshot<ItemID>) where SectionID == SectionIdentifier {
        apply(TableSnapshot(results))
        guard let tableView else { return }
        tableView.reconfigureRows(at: tableView.indexPathsForVisibleRows)
    }

    /// The item shown at a path, or nil.
    ///
    /// ```swift
    /// let id = dataSource.itemIdentifier(for: IndexPath(row: 0, section: 0))
    /// ```
    public func itemIdentifier(for indexPath: IndexPath) -> ItemID? {
        guard indexPath.section >= 0, indexPath.section < current.numberOfSections else { return nil }
        let items = current.itemIdentifiers(inSection: current.sectionIdentifiers[indexPath.section])
        return items.indices.contains(indexPath.row) ? items[indexPath.row] : nil
    }

    /// The path of an item, or nil.
    ///
    /// ```swift
    /// let path = dataSource.indexPath(for: id)
    /// ```
    public func indexPath(for itemIdentifier: ItemID) -> IndexPath? { paths[itemIdentifier] }

    /// The section identifier at an index, or nil.
    ///
    /// ```swift
    /// dataSource.sectionIdentifier(for: 0)
    /// ```
    public func sectionIdentifier(for index: Int) -> SectionID? {
        current.sectionIdentifiers.indices.contains(index) ? current.sectionIdentifiers[index] : nil
    }

    /// The snapshot's section count.
    public func numberOfSections(in tableView: TableView) -> Int { current.numberOfSections }

    /// The snapshot's item count in a section.
    public func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int {
        current.itemIdentifiers(inSection: current.sectionIdentifiers[section]).count
    }

    /// The cell provider's cell for the item at the path.
    public func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell {
        guard let item = itemIdentifier(for: indexPath) else {
            preconditionFailure("no item at \(indexPath) in the snapshot")
        }
        return cellProvider(tableView, indexPath, item)
    }

    /// `headerTitle` of the section's identifier; override for more.
    open func tableView(_ tableView: TableView, titleForHeaderInSection section: Int) -> String? {
        sectionIdentifier(for: section).flatMap { headerTitle?($0) }
    }

    // Declared here, not only in the protocol extension, so that subclasses can override them.

    /// No footer; override to add one.
    open func tableView(_ tableView: TableView, titleForFooterInSection section: Int) -> String? { nil }

    /// Every row editable; override to refuse some.
    open func tableView(_ tableView: TableView, canEditRowAt indexPath: IndexPath) -> Bool { true }

    /// No section index; override to add one.
    open func sectionIndexTitles(for tableView: TableView) -> [String]? { nil }

    /// The title at `index` leads to section `index`; override to map otherwise.
    open func tableView(_ tableView: TableView, sectionForSectionIndexTitle title: String, at index: Int) -> Int {
        index
    }
}
