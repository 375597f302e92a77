extension TableView {
    /// Whether a row shows a reorder handle: in edit mode, with a data
    /// source that reorders, and `canMoveRowAt` not false (rule 4.1).
    ///
    /// ```swift
    /// if table.canMoveRow(at: path) { drawHandle() }
    /// ```
    package func canMoveRow(at indexPath: IndexPath) -> Bool {
        guard isEditing, let reordering = dataSource as? any TableViewReorderingDataSource else { return false }
        return reordering.tableView(self, canMoveRowAt: indexPath)
    }

    /// Starts dragging a row; false when it cannot move.
    ///
    /// ```swift
    /// if table.beginReordering(at: path) { table.proposeReorderDestination(IndexPath(row: 0, section: 0)) }
    /// ```
    @discardableResult
    package func beginReordering(at indexPath: IndexPath) -> Bool {
        guard containsRow(at: indexPath), canMoveRow(at: indexPath) else { return false }
        endSwipe()
        reorderingSourceIndexPath = indexPath
        reorderingDestinationIndexPath = indexPath
        return true
    }

    /// The drag reached a proposed destination (after-removal coordinates):
    /// the delegate's `targetIndexPathForMoveFromRowAt` decides where the row
    /// really goes, always given the original source (rule 4.2). Returns it.
    ///
    /// ```swift
    /// table.proposeReorderDestination(IndexPath(row: 0, section: 1))
    /// ```
    @discardableResult
    package func proposeReorderDestination(_ proposed: IndexPath) -> IndexPath? {
        guard let source = reorderingSourceIndexPath else { return nil }
        let clamped = clampedDestination(proposed, source: source)
        let target =
            delegate?.tableView(self, targetIndexPathForMoveFromRowAt: source, toProposedIndexPath: clamped)
            ?? clamped
        reorderingDestinationIndexPath = clampedDestination(target, source: source)
        return reorderingDestinationIndexPath
    }

    /// Proposes the destination `offset` rows away from the current one
    /// (Shift+Up/Down): past a section's end the row enters the next
    /// section's top, past its start the previous section's end.
    ///
    /// ```swift
    /// table.moveReorderingRow(by: -1)   // Shift+Up
    /// ```
    @discardableResult
    package func moveReorderingRow(by offset: Int) -> IndexPath? {
        guard let source = reorderingSourceIndexPath, var proposal = reorderingDestinationIndexPath else { return nil }
        for _ in 0..<abs(offset) {
            proposal = step(proposal, down: offset > 0, source: source)
        }
        return proposeReorderDestination(proposal)
    }

    /// Drops the row: the table shows it at the destination, then the data
    /// source's `moveRowAt` updates the model (rule 4.3). Nothing is called
    /// for a drop back where the row started (rule 4.4 left open by UIKit).
    /// Returns the destination.
    ///
    /// ```swift
    /// let landed = table.endReordering()
    /// ```
    @discardableResult
    package func endReordering() -> IndexPath? {
        guard let source = reorderingSourceIndexPath, let destination = reorderingDestinationIndexPath else { return nil }
        reorderingSourceIndexPath = nil
        reorderingDestinationIndexPath = nil
        guard source != destination, let reordering = dataSource as? any TableViewReorderingDataSource else {
            return destination
        }
        var newCounts = rowCounts
        newCounts[source.section] -= 1
        newCounts[destination.section] += 1
        var batch = TableBatch()
        batch.movedRows = [TableBatch.RowMove(from: source, to: destination)]
        guard let plan = try? BatchPlan(batch, oldCounts: rowCounts, newCounts: newCounts) else {
            preconditionFailure("reorder from \(source) to \(destination) does not fit the table")
        }
        // The table shows the move first (rule 4.3); cells for rows scrolled
        // into view are asked for only once the model has moved too.
        let highlightWasVisible = commit(plan, revealingHighlight: false)
        reordering.tableView(self, moveRowAt: source, to: destination)
        if highlightWasVisible, let highlighted = highlightedIndexPath { reveal(highlighted, at: .none) }
        return destination
    }

    /// Abandons a drag; the row stays where it was.
    ///
    /// ```swift
    /// table.cancelReordering()
    /// ```
    package func cancelReordering() {
        reorderingSourceIndexPath = nil
        reorderingDestinationIndexPath = nil
    }

    /// One step of Shift+Up/Down: begin, move by `offset`, drop. Returns
    /// the row's new path, or nil when it cannot move.
    ///
    /// ```swift
    /// table.userMoveRow(at: table.highlightedIndexPath!, by: -1)
    /// ```
    @discardableResult
    package func userMoveRow(at indexPath: IndexPath, by offset: Int) -> IndexPath? {
        guard beginReordering(at: indexPath) else { return nil }
        moveReorderingRow(by: offset)
        return endReordering()
    }

    /// The largest valid row in `section` for a row moving from `source`.
    private func maxDestinationRow(in section: Int, source: IndexPath) -> Int {
        section == source.section ? rowCounts[section] - 1 : rowCounts[section]
    }

    private func clampedDestination(_ path: IndexPath, source: IndexPath) -> IndexPath {
        guard !rowCounts.isEmpty else { return source }
        let section = min(max(0, path.section), rowCounts.count - 1)
        let row = min(max(0, path.row), maxDestinationRow(in: section, source: source))
        return IndexPath(row: row, section: section)
    }

    private func step(_ path: IndexPath, down: Bool, source: IndexPath) -> IndexPath {
        if down {
            if path.row < maxDestinationRow(in: path.section, source: source) {
                return IndexPath(row: path.row + 1, section: path.section)
            }
            return path.section + 1 < rowCounts.count ? IndexPath(row: 0, section: path.section + 1) : path
        }
        if path.row > 0 { return IndexPath(row: path.row - 1, section: path.section) }
        guard path.section > 0 else { return path }
        return IndexPath(row: maxDestinationRow(in: path.section - 1, source: source), section: path.section - 1)
    }
}
