import FolioTable

/// The classic glue between a fetched results controller's change report
/// and a table, done right:
/// - `willChangeContent` opens a batch and `didChangeContent` closes it;
/// - section and object inserts and deletes go through unchanged (the report
///   already uses UITableView's coordinates);
/// - a move is `moveRow`, and the moved row's cell is asked for again after
///   the batch, because a row moves when its own keys changed;
/// - an update is `reloadRows` at the OLD path (the tutorials' "configure
///   the cell at indexPath" reads the wrong row once others shift), and the
///   fresh cell is made at the new path from the new object.
///
/// A refused batch (only possible when the table and the results disagree)
/// is counted in `refusals`, kept in `lastRefusal`, and repaired by
/// `reloadData()` so that the table never shows wrong rows.
///
/// ```swift
/// let adapter = FetchedResultsTableAdapter(tableView: table)
/// // in the controller's delegate (the view context reports on the main actor):
/// func controllerWillChangeContent(_ c: FetchedResultsController<Animal>) {
///     MainActor.assumeIsolated { adapter.willChangeContent() }
/// }
/// // ... didChangeSection(at:for:), didChangeObject(at:for:newIndexPath:), didChangeContent()
/// ```
@MainActor
public final class FetchedResultsTableAdapter {
    /// The table it updates (held weakly).
    ///
    /// ```swift
    /// adapter.tableView?.reloadData()
    /// ```
    public private(set) weak var tableView: TableView?
    /// How many batches the table refused.
    ///
    /// ```swift
    /// assert(adapter.refusals == 0)
    /// ```
    public private(set) var refusals = 0
    /// The last refusal, if any.
    ///
    /// ```swift
    /// if let error = adapter.lastRefusal { print(error.message) }
    /// ```
    public private(set) var lastRefusal: TableUpdateError?
    private var movedTo: [IndexPath] = []
    private var isChanging = false

    /// Creates the glue for a table.
    ///
    /// ```swift
    /// let adapter = FetchedResultsTableAdapter(tableView: table)
    /// ```
    public init(tableView: TableView) {
        self.tableView = tableView
    }

    /// The controller is about to report changes: opens a batch.
    ///
    /// ```swift
    /// adapter.willChangeContent()
    /// ```
    public func willChangeContent() {
        guard let tableView, !isChanging else { return }
        isChanging = true
        movedTo = []
        tableView.beginUpdates()
    }

    /// A section was inserted (new index) or deleted (old index).
    ///
    /// ```swift
    /// adapter.didChange(section: SectionChange(type: .insert, index: 2, section: "Birds"))
    /// ```
    public func didChange<Section>(section change: SectionChange<Section>) {
        guard let tableView else { return }
        switch change.type {
        case .insert: try? tableView.insertSections([change.index])
        case .delete: try? tableView.deleteSections([change.index])
        case .move, .update: break
        }
    }

    /// An object was inserted, deleted, moved or updated.
    ///
    /// ```swift
    /// adapter.didChange(object: ObjectChange(type: .delete, id: 7, indexPath: IndexPath(row: 0, section: 0), newIndexPath: nil))
    /// ```
    public func didChange<ID>(object change: ObjectChange<ID>) {
        guard let tableView else { return }
        switch (change.type, change.indexPath, change.newIndexPath) {
        case (.insert, _, let new?):
            try? tableView.insertRows(at: [new])
        case (.delete, let old?, _):
            try? tableView.deleteRows(at: [old])
        case (.move, let old?, let new?):
            try? tableView.moveRow(at: old, to: new)
            movedTo.append(new)
        case (.update, let old?, _):
            try? tableView.reloadRows(at: [old])
        default:
            preconditionFailure("change \(change) lacks the index path its type needs")
        }
    }

    /// The report is complete: applies the batch, then refreshes moved rows.
    ///
    /// ```swift
    /// adapter.didChangeContent()
    /// ```
    public func didChangeContent() {
        guard let tableView, isChanging else { return }
        isChanging = false
        do {
            try tableView.endUpdates()
            tableView.reconfigureRows(at: movedTo)
        } catch {
            refusals += 1
            lastRefusal = error
            tableView.reloadData()
        }
        movedTo = []
    }

    /// Feeds a whole change set: will, sections, objects, did.
    ///
    /// ```swift
    /// for await changes in controller.changeSets() { adapter.apply(changes) }
    /// ```
    ///
    /// - Complexity: O(changes + sections + visible rows).
    public func apply<ID, Section>(_ changes: ResultsChangeSet<ID, Section>) {
        willChangeContent()
        for change in changes.sectionChanges { didChange(section: change) }
        for change in changes.objectChanges { didChange(object: change) }
        didChangeContent()
    }
}
