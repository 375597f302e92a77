import FolioResults
import FolioStore
import FolioTable
import FolioTerminal

/// A table screen fed by a `FetchedResultsController`: sections and rows
/// come from the results, every change the results report reaches the table
/// as a batch update (through `FetchedResultsTableAdapter`), and the
/// highlighted row stays on its object when other rows come and go —
/// including saves made by other processes.
///
/// Subclass it and override ``configure(_:with:)`` (and
/// ``didSelect(_:at:)`` to open a detail). ``searches(_:)`` makes `/`
/// narrow the rows as the user types, ``confirmDeletion(of:title:message:)``
/// asks before a delete that is saved without holding up the screen, and
/// a server store's reachability shows in the hint bar ("offline").
/// ```swift
/// final class PlanetsController: ResultsTableController<Planet> {
///     override func configure(_ cell: TableViewCell, with planet: Planet) {
///         cell.textLabel?.text = planet.name
///     }
/// }
/// let controller = try PlanetsController(title: "Planets", results: results)
/// ```
@MainActor
open class ResultsTableController<Entity: ManagedObject>: TableViewController, TableViewDataSource, TableViewDelegate {
    /// The live results the table shows.
    public let results: FetchedResultsController<Entity>
    /// The glue turning change reports into batch updates.
    public let adapter: FetchedResultsTableAdapter
    /// Whether the section index strip is offered (sectioned results only).
    public var showsSectionIndex = false
    /// The style of the cells made for rows.
    public let cellStyle: TableViewCell.Style
    /// The object under the highlight, followed across changes.
    public private(set) var highlightedObject: Entity?
    /// What Enter does on a row ("edit", "open"), for the hints; nil when
    /// selecting a row does nothing.
    ///
    /// ```swift
    /// selectionHint = "edit"
    /// ```
    public var selectionHint: String?
    private let reuseIdentifier: String
    /// What `/` searches (see ``searches(_:)``), and the request's own filters.
    var searchKeyPaths: [PartialKeyPath<Entity>] = []
    var baseStringFilters: [StringFilter<Entity>] = []
    /// Shows a server store's reachability in the hint bar (see ``watchStoreStatus()``).
    var statusTimer: DispatchSourceTimer?

    /// A screen over `results` (fetched here), with cells of `cellType` in `cellStyle`.
    ///
    /// ```swift
    /// try PlanetsController(title: "Planets", results: results, cellStyle: .subtitle)
    /// ```
    public init(
        title: String, results: FetchedResultsController<Entity>, cellStyle: TableViewCell.Style = .default,
        cellType: TableViewCell.Type = TableViewCell.self
    ) throws {
        self.results = results
        self.cellStyle = cellStyle
        reuseIdentifier = "\(Entity.self)Cell"
        let table = TableView()
        adapter = FetchedResultsTableAdapter(tableView: table)
        super.init(title: title, tableView: table)
        table.register(forCellReuseIdentifier: reuseIdentifier) { identifier in
            cellType.init(style: cellStyle, reuseIdentifier: identifier)
        }
        table.dataSource = self
        table.delegate = self
        results.delegate = self
        try results.performFetch()
    }

    /// Fills a cell for `object`. Override it; the default shows nothing.
    ///
    /// ```swift
    /// override func configure(_ cell: TableViewCell, with planet: Planet) { cell.textLabel?.text = planet.name }
    /// ```
    open func configure(_ cell: TableViewCell, with object: Entity) {}

    /// The user selected the row of `object` (Enter or a click).
    ///
    /// ```swift
    /// override func didSelect(_ planet: Planet, at indexPath: IndexPath) { navigationController?.push(PlanetForm(planet)) }
    /// ```
    open func didSelect(_ object: Entity, at indexPath: IndexPath) {}

    /// The section's header; the section name by default, none when unsectioned.
    open func headerTitle(forSectionNamed name: String) -> String? {
        results.sectionNameKeyPath == nil ? nil : name
    }

    /// Records the highlighted object after every event, so that a later
    /// change report can put the highlight back on it.
    override open func handle(_ event: InputEvent) -> Bool {
        let handled = super.handle(event)
        rememberHighlight()
        return handled
    }

    /// Loads the table and remembers the highlighted object.
    override open func viewWillAppear() {
        super.viewWillAppear()
        rememberHighlight()
        if ReadOnlyStores.contains(results.managedObjectContext) { application?.status = ReadOnlyStores.status }
        watchStoreStatus()
    }

    /// Narrows the results to `text` (see ``searches(_:)``).
    override open func searchTextDidChange(_ text: String) {
        narrowResults(to: text)
    }

    /// Readies the results for the search, so that each keystroke is answered from memory.
    override open func searchWillBegin() {
        results.prepareSearch(searchKeyPaths, options: Self.searchOptions)
    }

    /// Lets go of what the search kept, once no filter is in force.
    override open func searchDidEnd() {
        results.endSearch()
    }

    /// What Enter does on a row: ``selectionHint`` outside edit mode.
    override open func enterHint(forRowAt indexPath: IndexPath) -> String? {
        tableView.isEditing ? super.enterHint(forRowAt: indexPath) : selectionHint
    }

    /// Asks before deleting: an action sheet with `title` and `message`,
    /// Cancel focused, and a destructive Delete that deletes the object (and
    /// what its delete rules take with it) only if it still exists. Every
    /// list deletes this way: a store delete cannot be undone.
    ///
    /// ```swift
    /// func tableView(_ t: TableView, commit style: TableViewCell.EditingStyle, forRowAt path: IndexPath) {
    ///     let planet = results.object(at: path)
    ///     confirmDeletion(of: planet, title: "Delete Planet",
    ///                     message: "Are you sure you want to permanently delete \(planet.name)?")
    /// }
    /// ```
    public func confirmDeletion(of object: Entity, title: String, message: String) {
        let id = object.objectID
        let context = results.managedObjectContext
        if ReadOnlyStores.contains(context) { return presentError(title: "Read-Only", message: ReadOnlyStores.reason) }
        // A second Delete while the first waits for the store would act on what is about to go.
        if isSaving(id, in: context) { return application?.showNotice("Still saving the last change to this row: wait for it") ?? () }
        let sheet = AlertController(title: title, message: message, preferredStyle: .actionSheet)
        sheet.addAction(
            AlertAction(title: "Delete", style: .destructive) { [weak self] _ in
                self?.deleteWhenWritable(id)
            })
        sheet.addAction(AlertAction(title: "Cancel", style: .cancel))
        present(sheet)
    }

    /// Deletes `object` and saves, waiting for the store's write lock off
    /// the main actor (the screen keeps taking keys; the hint bar says
    /// "saving…"); the row goes when the delete lands. On failure the row
    /// stays and an error says why until dismissed.
    ///
    /// ```swift
    /// deleteAndSave(results.object(at: path))
    /// ```
    public func deleteAndSave(_ object: Entity) {
        deleteWhenWritable(object.objectID)
    }

    private func deleteWhenWritable(_ id: ObjectID) {
        let context = results.managedObjectContext
        let app = application
        saveWhenWritable(
            context, touching: [id],
            {
                // Looked up once the lock is held: another program may have deleted it meanwhile.
                guard let current = try? context.existingObject(with: id) as? Entity, !current.isDeleted else {
                    throw DeletedElsewhere()
                }
                context.delete(current)
            }
        ) { [weak self] result in
            guard case .failure(let error) = result else { return }
            self?.presentWhereShown(error: error, title: "Not Deleted", application: app)
        }
    }

    /// Puts the highlight on `object`'s row, if it is in the results.
    ///
    /// ```swift
    /// highlight(newPlanet)
    /// ```
    public func highlight(_ object: Entity) {
        guard let path = results.indexPath(forObject: object) else { return }
        tableView.highlightRow(at: path)
        highlightedObject = object
        setNeedsDisplay()
    }

    func rememberHighlight() {
        guard let path = tableView.highlightedIndexPath, path.section < (results.sections?.count ?? 0),
            path.row < results.sections![path.section].numberOfObjects
        else {
            // An empty table (a search matching nothing) keeps the object,
            // so the highlight returns to it when rows come back.
            if tableView.numberOfRowsInAllSections > 0 { highlightedObject = nil }
            return
        }
        highlightedObject = results.object(at: path)
    }

    func restoreHighlight() {
        if let object = highlightedObject, let path = results.indexPath(forObject: object) {
            if tableView.highlightedIndexPath != path { tableView.highlightRow(at: path) }
        } else if tableView.highlightedIndexPath == nil, let first = tableView.firstRow(atOrAfter: IndexPath(row: 0, section: 0)) {
            // Rows and no highlight would leave the keys acting on nothing.
            tableView.highlightRow(at: first)
        }
        rememberHighlight()
    }

    // MARK: Data source

    /// The number of sections.
    public func numberOfSections(in tableView: TableView) -> Int {
        results.sections?.count ?? 0
    }

    /// The number of rows in a section.
    public func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int {
        results.sections?[section].numberOfObjects ?? 0
    }

    /// The cell for a row, configured from its data.
    public func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell {
        let cell = tableView.dequeueReusableCell(withIdentifier: reuseIdentifier, for: indexPath)
        configure(cell, with: results.object(at: indexPath))
        return cell
    }

    /// A section's header title.
    public func tableView(_ tableView: TableView, titleForHeaderInSection section: Int) -> String? {
        guard let sections = results.sections, section < sections.count else { return nil }
        return headerTitle(forSectionNamed: sections[section].name)
    }

    /// The section index titles, when shown.
    public func sectionIndexTitles(for tableView: TableView) -> [String]? {
        showsSectionIndex ? results.sectionIndexTitles : nil
    }

    /// The section an index title jumps to.
    public func tableView(_ tableView: TableView, sectionForSectionIndexTitle title: String, at index: Int) -> Int {
        results.section(forSectionIndexTitle: title, at: index)
    }

    // MARK: Delegate

    /// The user selected a row.
    public func tableView(_ tableView: TableView, didSelectRowAt indexPath: IndexPath) {
        didSelect(results.object(at: indexPath), at: indexPath)
    }
}

extension ResultsTableController: DebugRowIdentifying {
    /// The object's store ID ("Planet/3"), for the debug state hook.
    package func debugIdentifier(forRowAt indexPath: IndexPath) -> String? {
        guard let sections = results.sections, indexPath.section < sections.count,
            indexPath.row < sections[indexPath.section].numberOfObjects
        else { return nil }
        let id = results.object(at: indexPath).objectID
        return "\(id.entityName)/\(id.rowID)"
    }
}

extension ResultsTableController: FetchedResultsControllerDelegate {
    /// Applies each batch to the table whole and puts the highlight back on its object.
    public func controller(_ controller: AnyFetchedResultsController, didChangeContentWith changes: FetchedResultsChanges) {
        adapter.apply(changes)
        restoreHighlight()
        setNeedsDisplay()
    }
}
