import FolioTable

/// A table delegate that records every call as a line, for
/// record-then-compare tests, and lets tests steer its answers.
///
/// ```swift
/// let delegate = TableRecordingDelegate()
/// table.delegate = delegate
/// table.userDidTapRow(at: path)
/// #expect(delegate.events == ["didHighlight [0, 0]", "willSelect [0, 0]", "didSelect [0, 0]"])
/// ```
@MainActor
public final class TableRecordingDelegate: TableViewDelegate {
    /// The recorded calls, oldest first.
    public var events: [String] = []
    /// Whether display calls (willDisplay/didEndDisplaying) are recorded; off by default.
    public var recordsDisplay = false
    /// Rows that refuse highlighting.
    public var unhighlightable: Set<IndexPath> = []
    /// Redirects for `willSelectRowAt`: a row mapped to nil cancels.
    public var selectRedirects: [IndexPath: IndexPath?] = [:]
    /// Editing styles per row; missing rows use `.delete`.
    public var editingStyles: [IndexPath: TableViewCell.EditingStyle] = [:]
    /// A custom delete confirmation title.
    public var deleteTitle: String?
    /// Swipe configurations per row; missing rows use the default.
    public var swipeConfigurations: [IndexPath: SwipeActionsConfiguration] = [:]
    /// Decides reorder targets; nil accepts proposals.
    public var moveTarget: ((IndexPath, IndexPath) -> IndexPath)?
    /// Row heights per row; missing rows use the table's.
    public var rowHeights: [IndexPath: Int] = [:]

    /// Creates an empty recorder.
    public init() {}

    /// Recorded in `events`, answered as configured (delegate requirement).
    public func tableView(_ tableView: TableView, heightForRowAt indexPath: IndexPath) -> Int? { rowHeights[indexPath] }

    /// Recorded in `events`, answered as configured (delegate requirement).
    public func tableView(_ tableView: TableView, shouldHighlightRowAt indexPath: IndexPath) -> Bool {
        events.append("shouldHighlight \(indexPath)")
        return !unhighlightable.contains(indexPath)
    }

    /// Recorded in `events`, answered as configured (delegate requirement).
    public func tableView(_ tableView: TableView, didHighlightRowAt indexPath: IndexPath) {
        events.append("didHighlight \(indexPath)")
    }

    /// Recorded in `events`, answered as configured (delegate requirement).
    public func tableView(_ tableView: TableView, didUnhighlightRowAt indexPath: IndexPath) {
        events.append("didUnhighlight \(indexPath)")
    }

    /// Recorded in `events`, answered as configured (delegate requirement).
    public func tableView(_ tableView: TableView, willSelectRowAt indexPath: IndexPath) -> IndexPath? {
        events.append("willSelect \(indexPath)")
        if let redirect = selectRedirects[indexPath] { return redirect }
        return indexPath
    }

    /// Recorded in `events`, answered as configured (delegate requirement).
    public func tableView(_ tableView: TableView, didSelectRowAt indexPath: IndexPath) {
        events.append("didSelect \(indexPath)")
    }

    /// Recorded in `events`, answered as configured (delegate requirement).
    public func tableView(_ tableView: TableView, willDeselectRowAt indexPath: IndexPath) -> IndexPath? {
        events.append("willDeselect \(indexPath)")
        return indexPath
    }

    /// Recorded in `events`, answered as configured (delegate requirement).
    public func tableView(_ tableView: TableView, didDeselectRowAt indexPath: IndexPath) {
        events.append("didDeselect \(indexPath)")
    }

    /// Recorded in `events`, answered as configured (delegate requirement).
    public func tableView(_ tableView: TableView, accessoryButtonTappedForRowWith indexPath: IndexPath) {
        events.append("accessoryTapped \(indexPath)")
    }

    /// Recorded in `events`, answered as configured (delegate requirement).
    public func tableView(_ tableView: TableView, editingStyleForRowAt indexPath: IndexPath) -> TableViewCell.EditingStyle {
        events.append("editingStyle \(indexPath)")
        return editingStyles[indexPath] ?? .delete
    }

    /// Recorded in `events`, answered as configured (delegate requirement).
    public func tableView(_ tableView: TableView, titleForDeleteConfirmationButtonForRowAt indexPath: IndexPath) -> String? {
        deleteTitle
    }

    /// Recorded in `events`, answered as configured (delegate requirement).
    public func tableView(
        _ tableView: TableView, trailingSwipeActionsConfigurationForRowAt indexPath: IndexPath
    ) -> SwipeActionsConfiguration? {
        swipeConfigurations[indexPath]
    }

    /// Recorded in `events`, answered as configured (delegate requirement).
    public func tableView(_ tableView: TableView, willBeginEditingRowAt indexPath: IndexPath) {
        events.append("willBeginEditing \(indexPath)")
    }

    /// Recorded in `events`, answered as configured (delegate requirement).
    public func tableView(_ tableView: TableView, didEndEditingRowAt indexPath: IndexPath?) {
        events.append("didEndEditing \(indexPath.map(\.description) ?? "nil")")
    }

    /// Recorded in `events`, answered as configured (delegate requirement).
    public func tableView(
        _ tableView: TableView, targetIndexPathForMoveFromRowAt sourceIndexPath: IndexPath,
        toProposedIndexPath proposedDestinationIndexPath: IndexPath
    ) -> IndexPath {
        events.append("target \(sourceIndexPath) proposed \(proposedDestinationIndexPath)")
        return moveTarget?(sourceIndexPath, proposedDestinationIndexPath) ?? proposedDestinationIndexPath
    }

    /// Recorded in `events`, answered as configured (delegate requirement).
    public func tableView(_ tableView: TableView, willDisplay cell: TableViewCell, forRowAt indexPath: IndexPath) {
        if recordsDisplay { events.append("willDisplay \(indexPath)") }
    }

    /// Recorded in `events`, answered as configured (delegate requirement).
    public func tableView(_ tableView: TableView, didEndDisplaying cell: TableViewCell, forRowAt indexPath: IndexPath) {
        if recordsDisplay { events.append("didEndDisplaying \(indexPath)") }
    }
}
