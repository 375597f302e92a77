extension TableView {
    /// Checks the table's own invariants; tests call it after each mutation.
    ///
    /// ```swift
    /// table.checkInvariants()
    /// ```
    package func checkInvariants() {
        precondition(rowCounts.allSatisfy { $0 >= 0 }, "negative cached row count in \(rowCounts)")
        for path in selectedRows {
            precondition(containsRow(at: path), "selected row \(path) does not exist")
        }
        for (path, cell) in visibleCells {
            precondition(containsRow(at: path), "visible cell for missing row \(path)")
            precondition(cell.isSelected == selectedRows.contains(path), "cell at \(path) disagrees on selection")
        }
        if let highlighted = highlightedIndexPath {
            precondition(containsRow(at: highlighted), "highlighted row \(highlighted) does not exist")
        }
        if let swiped = swipedIndexPath {
            precondition(containsRow(at: swiped), "swiped row \(swiped) does not exist")
        }
        if !selectedRows.isEmpty, !(isEditing ? allowsMultipleSelectionDuringEditing : allowsMultipleSelection) {
            precondition(selectedRows.count <= 1, "several rows selected in single-selection mode: \(selectedRows.sorted())")
        }
        for queue in reuseQueues.values {
            for cell in queue {
                precondition(!visibleCells.values.contains { $0 === cell }, "a queued cell is still visible")
            }
        }
    }
}
