import FolioTable

/// The glue between a fetched results controller's change report and a
/// table, done right: the controller hands over each batch whole
/// (`controller(_:didChangeContentWith:)`), and the adapter applies it as
/// one validated table batch:
/// - section and object inserts and deletes go through unchanged (the report
///   already uses UITableView's coordinates);
/// - a move is a row move, and the moved row's cell is asked for again after
///   the batch, because a row moves when its own keys changed;
/// - an update reloads the row at its OLD path (the tutorials' "configure
///   the cell at indexPath" reads the wrong row once others shift), and the
///   fresh cell is made at the new path from the new object.
///
/// A refused batch (only possible when the table and the results disagree)
/// is counted in `refusals`, kept in `lastRefusal`, and repaired by
/// `reloadData()` so that the table never shows wrong rows.
///
/// ```swift
/// let adapter = FetchedResultsTableAdapter(tableView: tableView)
/// extension ShelvesController: FetchedResultsControllerDelegate {
///     func controller(_ controller: AnyFetchedResultsController, didChangeContentWith changes: FetchedResultsChanges) {
///         adapter.apply(changes)
///     }
/// }
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

    /// Creates the glue for a table.
    ///
    /// ```swift
    /// let adapter = FetchedResultsTableAdapter(tableView: table)
    /// ```
    public init(tableView: TableView) {
        self.tableView = tableView
    }

    /// Applies one batch of changes to the table as one batch update, then
    /// refreshes the moved rows; a refused batch is repaired by `reloadData()`.
    ///
    /// ```swift
    /// adapter.apply(changes)
    /// ```
    /// - Complexity: O(changes × log changes + sections + visible rows).
    public func apply<ID, Section>(_ changes: ResultsChangeSet<ID, Section>) {
        guard let tableView, !changes.isEmpty else { return }
        var batch = TableBatch()
        var movedTo: [IndexPath] = []
        for change in changes.sectionChanges {
            switch change.type {
            case .insert: batch.insertedSections.append(change.index)
            case .delete: batch.deletedSections.append(change.index)
            case .move, .update: break
            }
        }
        for change in changes.objectChanges {
            switch (change.type, change.indexPath, change.newIndexPath) {
            case (.insert, _, let new?): batch.insertedRows.append(new)
            case (.delete, let old?, _): batch.deletedRows.append(old)
            case (.move, let old?, let new?):
                batch.movedRows.append(TableBatch.RowMove(from: old, to: new))
                movedTo.append(new)
            case (.update, let old?, _): batch.reloadedRows.append(old)
            default: preconditionFailure("change \(change) lacks the index path its type needs")
            }
        }
        do {
            try tableView.apply(batch)
            tableView.reconfigureRows(at: movedTo)
        } catch {
            refusals += 1
            lastRefusal = error
            tableView.reloadData()
        }
    }
}
