import FolioTable

extension TableViewController {
    /// Click selects (or presses a revealed action), the wheel scrolls, a
    /// leftward drag on a row swipes it.
    func handleTableMouse(_ mouse: MouseEvent) -> Bool {
        switch mouse.kind {
        case .wheelUp:
            tableView.scroll(byLines: -3)
        case .wheelDown:
            tableView.scroll(byLines: 3)
        case .press(.left):
            pressStart = (mouse.column, mouse.row, path(atRow: mouse.row), false)
        case .drag(.left):
            guard var start = pressStart, !start.swiped, let path = start.path, !tableView.isEditing else { return true }
            if start.column - mouse.column >= 3 {
                tableView.revealTrailingSwipeActions(forRowAt: path)
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
               let first = tableView.firstRow(atOrAfter: IndexPath(row: 0, section: section)) {
                tableView.highlightRow(at: first)
            }
            return
        }
        if let (_, index) = actionFrames.first(where: { $0.0.contains(column: column, row: row) }) {
            while let focused = tableView.focusedSwipeActionIndex, focused > index, tableView.focusNextSwipeAction() {}
            while let focused = tableView.focusedSwipeActionIndex, focused < index, tableView.focusPreviousSwipeAction() {}
            tableView.performFocusedSwipeAction()
            return
        }
        if let (_, path) = detailButtonFrames.first(where: { $0.0.contains(column: column, row: row) }) {
            tableView.highlightRow(at: path)
            tableView.userDidTapAccessoryButton(forRowAt: path)
            return
        }
        if let confirmationFrame, confirmationFrame.contains(column: column, row: row) {
            tableView.userDidConfirmDeletion()
            return
        }
        if tableView.swipedIndexPath != nil || tableView.deleteConfirmationIndexPath != nil {
            tableView.hideSwipeActions()
            tableView.cancelDeleteConfirmation()
            return
        }
        guard let path = path(atRow: row) else { return }
        if tableView.isEditing && column <= frame.x + 3 && tableView.editingStyleForRow(at: path) != .none {
            tableView.highlightRow(at: path)
            tableView.userDidTapEditingControl(forRowAt: path)
            return
        }
        tableView.highlightRow(at: path)
        activateHighlighted()
    }

    /// The row drawn on a screen row.
    private func path(atRow row: Int) -> IndexPath? {
        rowFrames.first { row >= $0.0.y && row < $0.0.maxY }?.1
    }
}
