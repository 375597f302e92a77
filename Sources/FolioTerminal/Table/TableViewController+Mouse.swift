import FolioTable

extension TableViewController {
    /// Click selects (or presses a revealed action), the wheel scrolls, a
    /// leftward drag on a row swipes it.
    func handleTableMouse(_ mouse: MouseEvent) -> Bool {
        switch mouse.kind {
        case .wheelUp:
            tableView.scroll(byLines: -3)
            moveHighlightIntoViewport()
        case .wheelDown:
            tableView.scroll(byLines: 3)
            moveHighlightIntoViewport()
        case .press(.left):
            pressStart = (mouse.column, mouse.row, path(atRow: mouse.row), false)
        case .drag(.left):
            guard var start = pressStart, !start.swiped, let path = start.path, !tableView.isEditing else { return true }
            if start.column - mouse.column >= 3 {
                // The swiped row becomes the highlighted one, as a touch
                // highlights it: actions never show on another row.
                hideRevealedActions()
                tableView.highlightRow(at: path)
                if tableView.highlightedIndexPath == path {
                    tableView.revealTrailingSwipeActions(forRowAt: path)
                    noteRevealedActions()
                }
                start.swiped = true
                pressStart = start
            }
        case .release:
            defer { pressStart = nil }
            guard let start = pressStart, !start.swiped, abs(start.row - mouse.row) == 0 else { return true }
            click(column: mouse.column, row: mouse.row)
        default:
            return false
        }
        setNeedsDisplay()
        return true
    }

    /// A click: a revealed action or confirmation button, else the row.
    private func click(column: Int, row: Int) {
        if let (_, index) = indexFrames.first(where: { $0.0.contains(column: column, row: row) }) {
            if let section = tableView.userDidTapSectionIndexTitle(at: index),
                let first = tableView.firstRow(atOrAfter: IndexPath(row: 0, section: section))
            {
                tableView.highlightRow(at: first)
            }
            return
        }
        if let (_, index) = actionFrames.first(where: { $0.0.contains(column: column, row: row) }) {
            while let focused = tableView.focusedSwipeActionIndex, focused > index, tableView.focusNextSwipeAction() {}
            while let focused = tableView.focusedSwipeActionIndex, focused < index, tableView.focusPreviousSwipeAction() {}
            tableView.performFocusedSwipeAction()
            revealedActionsAt = nil
            return
        }
        if let (_, path) = detailButtonFrames.first(where: { $0.0.contains(column: column, row: row) }) {
            tableView.highlightRow(at: path)
            tableView.userDidTapAccessoryButton(forRowAt: path)
            return
        }
        if let confirmationFrame, confirmationFrame.contains(column: column, row: row) {
            tableView.userDidConfirmDeletion()
            revealedActionsAt = nil
            return
        }
        if revealedActionPath != nil {
            // A touch elsewhere only hides the revealed actions (UIKit).
            hideRevealedActions()
            return
        }
        guard let path = path(atRow: row) else { return }
        if tableView.isEditing && column <= frame.x + 3 && tableView.editingStyleForRow(at: path) != .none {
            tableView.highlightRow(at: path)
            guard tableView.highlightedIndexPath == path else { return }
            tableView.userDidTapEditingControl(forRowAt: path)
            noteRevealedActions()
            return
        }
        tableView.highlightRow(at: path)
        activateHighlighted()
    }

    /// After a wheel scroll the cursor comes along to the nearest row in
    /// view, so the highlighted row is always on screen.
    private func moveHighlightIntoViewport() {
        guard let highlighted = tableView.highlightedIndexPath, !tableView.isRowFullyVisible(highlighted) else { return }
        let visible = tableView.indexPathsForVisibleRows.filter { tableView.isRowFullyVisible($0) }
        guard let first = visible.first, let last = visible.last else { return }
        tableView.highlightRow(at: highlighted < first ? first : last)
    }

    /// The row drawn on a screen row.
    private func path(atRow row: Int) -> IndexPath? {
        rowFrames.first { row >= $0.0.y && row < $0.0.maxY }?.1
    }
}
