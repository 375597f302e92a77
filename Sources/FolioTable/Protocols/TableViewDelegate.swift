/// Reacts to and customises a table's behaviour (UIKit's delegate role).
/// Every method has a default, so conform only to what you need.
///
/// ```swift
/// extension PlanetList: TableViewDelegate {
///     func tableView(_ t: TableView, didSelectRowAt p: IndexPath) { showDetail(p) }
/// }
/// ```
@MainActor
public protocol TableViewDelegate: AnyObject {
    /// A row's height in lines; nil (default) uses `tableView.rowHeight`.
    func tableView(_ tableView: TableView, heightForRowAt indexPath: IndexPath) -> Int?
    /// A header's height in lines; nil (default) uses `sectionHeaderHeight` when there is a title.
    func tableView(_ tableView: TableView, heightForHeaderInSection section: Int) -> Int?
    /// A footer's height in lines; nil (default) uses `sectionFooterHeight` when there is a title.
    func tableView(_ tableView: TableView, heightForFooterInSection section: Int) -> Int?

    /// Whether a row may be highlighted; true by default (rule 5.2).
    func tableView(_ tableView: TableView, shouldHighlightRowAt indexPath: IndexPath) -> Bool
    /// A row became highlighted.
    func tableView(_ tableView: TableView, didHighlightRowAt indexPath: IndexPath)
    /// A row stopped being highlighted.
    func tableView(_ tableView: TableView, didUnhighlightRowAt indexPath: IndexPath)
    /// The row to select instead, or nil to cancel; the path itself by default (rule 5.3).
    func tableView(_ tableView: TableView, willSelectRowAt indexPath: IndexPath) -> IndexPath?
    /// A row was selected by the user.
    func tableView(_ tableView: TableView, didSelectRowAt indexPath: IndexPath)
    /// The row to deselect instead, or nil to cancel; the path itself by default.
    func tableView(_ tableView: TableView, willDeselectRowAt indexPath: IndexPath) -> IndexPath?
    /// A row was deselected by the user.
    func tableView(_ tableView: TableView, didDeselectRowAt indexPath: IndexPath)
    /// A row's detail button was tapped (rule 6.8); no selection happens.
    func tableView(_ tableView: TableView, accessoryButtonTappedForRowWith indexPath: IndexPath)

    /// A row's editing control; `.delete` by default (rule 3.2).
    func tableView(_ tableView: TableView, editingStyleForRowAt indexPath: IndexPath) -> TableViewCell.EditingStyle
    /// The delete confirmation's title; nil (default) means "Delete" (rule 3.5).
    func tableView(_ tableView: TableView, titleForDeleteConfirmationButtonForRowAt indexPath: IndexPath) -> String?
    /// The actions revealed by a leftward swipe; nil (default) falls back to
    /// swipe-to-delete when the data source commits edits (rules 3.8, 3.9).
    func tableView(_ tableView: TableView, trailingSwipeActionsConfigurationForRowAt indexPath: IndexPath) -> SwipeActionsConfiguration?
    /// A swipe started on a row (rule 3.7).
    func tableView(_ tableView: TableView, willBeginEditingRowAt indexPath: IndexPath)
    /// A swipe ended; the path is nil when the row no longer exists (rule 3.7).
    func tableView(_ tableView: TableView, didEndEditingRowAt indexPath: IndexPath?)
    /// Where a dragged row would really go; the proposal by default (rule 4.2).
    func tableView(
        _ tableView: TableView,
        targetIndexPathForMoveFromRowAt sourceIndexPath: IndexPath,
        toProposedIndexPath proposedDestinationIndexPath: IndexPath
    ) -> IndexPath

    /// A cell is about to be shown for a row.
    func tableView(_ tableView: TableView, willDisplay cell: TableViewCell, forRowAt indexPath: IndexPath)
    /// A cell left the viewport (or its row went away) and returns to the reuse queue.
    func tableView(_ tableView: TableView, didEndDisplaying cell: TableViewCell, forRowAt indexPath: IndexPath)
}

extension TableViewDelegate {
    /// Uses the table's `rowHeight`.
    public func tableView(_ tableView: TableView, heightForRowAt indexPath: IndexPath) -> Int? { nil }
    /// Uses the table's `sectionHeaderHeight` when there is a title.
    public func tableView(_ tableView: TableView, heightForHeaderInSection section: Int) -> Int? { nil }
    /// Uses the table's `sectionFooterHeight` when there is a title.
    public func tableView(_ tableView: TableView, heightForFooterInSection section: Int) -> Int? { nil }
    /// Every row can be highlighted.
    public func tableView(_ tableView: TableView, shouldHighlightRowAt indexPath: IndexPath) -> Bool { true }
    /// Nothing.
    public func tableView(_ tableView: TableView, didHighlightRowAt indexPath: IndexPath) {}
    /// Nothing.
    public func tableView(_ tableView: TableView, didUnhighlightRowAt indexPath: IndexPath) {}
    /// Selects the proposed row.
    public func tableView(_ tableView: TableView, willSelectRowAt indexPath: IndexPath) -> IndexPath? { indexPath }
    /// Nothing.
    public func tableView(_ tableView: TableView, didSelectRowAt indexPath: IndexPath) {}
    /// Deselects the proposed row.
    public func tableView(_ tableView: TableView, willDeselectRowAt indexPath: IndexPath) -> IndexPath? { indexPath }
    /// Nothing.
    public func tableView(_ tableView: TableView, didDeselectRowAt indexPath: IndexPath) {}
    /// Nothing.
    public func tableView(_ tableView: TableView, accessoryButtonTappedForRowWith indexPath: IndexPath) {}
    /// `.delete`.
    public func tableView(_ tableView: TableView, editingStyleForRowAt indexPath: IndexPath) -> TableViewCell.EditingStyle {
        .delete
    }
    /// "Delete".
    public func tableView(_ tableView: TableView, titleForDeleteConfirmationButtonForRowAt indexPath: IndexPath) -> String? {
        nil
    }
    /// No configuration: swipe-to-delete where edits can be committed.
    public func tableView(
        _ tableView: TableView, trailingSwipeActionsConfigurationForRowAt indexPath: IndexPath
    ) -> SwipeActionsConfiguration? { nil }
    /// Nothing.
    public func tableView(_ tableView: TableView, willBeginEditingRowAt indexPath: IndexPath) {}
    /// Nothing.
    public func tableView(_ tableView: TableView, didEndEditingRowAt indexPath: IndexPath?) {}
    /// Accepts the proposal.
    public func tableView(
        _ tableView: TableView,
        targetIndexPathForMoveFromRowAt sourceIndexPath: IndexPath,
        toProposedIndexPath proposedDestinationIndexPath: IndexPath
    ) -> IndexPath { proposedDestinationIndexPath }
    /// Nothing.
    public func tableView(_ tableView: TableView, willDisplay cell: TableViewCell, forRowAt indexPath: IndexPath) {}
    /// Nothing.
    public func tableView(_ tableView: TableView, didEndDisplaying cell: TableViewCell, forRowAt indexPath: IndexPath) {}
}
