import FolioTable

extension TableViewController {
    /// Routes an event: the search field or the text field being edited
    /// first, then the mouse, then the table's keys.
    func handleTableEvent(_ event: InputEvent) -> Bool {
        keepRevealedActionsOnHighlight()
        defer { keepRevealedActionsOnHighlight() }
        if searchEditor != nil { return handleSearchEditing(event) }
        // Keys for the list act on the rows the typed search leaves.
        applyPendingSearch()
        if textEditor != nil { return handleTextEditing(event) }
        switch event {
        case .key(let key): return handleTableKey(key)
        case .mouse(let mouse): return handleTableMouse(mouse)
        case .paste: return false
        }
    }

    /// The table keys of docs/architecture.md, "Terminal interaction".
    func handleTableKey(_ key: Key) -> Bool {
        let plain = key.modifiers.isEmpty
        let character = key.character
        // As a touch elsewhere does in UIKit, any key but those of the
        // revealed actions hides them first, so Enter can only ever act on
        // the highlighted row's actions.
        if revealedActionPath != nil && !Self.actsOnRevealedActions(key) { hideRevealedActions() }
        let swiped = tableView.swipedIndexPath != nil
        let confirming = tableView.deleteConfirmationIndexPath != nil
        switch (key.code, character) {
        case (.up, _) where key.modifiers == .shift, (_, "K"):
            return reorderHighlighted(by: -1)
        case (.down, _) where key.modifiers == .shift, (_, "J"):
            return reorderHighlighted(by: 1)
        case (.up, _) where plain, (_, "k"):
            tableView.moveHighlight(by: -1)
        case (.down, _) where plain, (_, "j"):
            tableView.moveHighlight(by: 1)
        case (.pageUp, _):
            tableView.moveHighlight(by: -max(1, tableView.viewportHeight - 1))
        case (.pageDown, _):
            tableView.moveHighlight(by: max(1, tableView.viewportHeight - 1))
        case (.home, _), (_, "g"):
            if let first = tableView.firstRow(atOrAfter: IndexPath(row: 0, section: 0)) { tableView.highlightRow(at: first) }
        case (.end, _), (_, "G"):
            if let last = tableView.lastRow() { tableView.highlightRow(at: last) }
        case (.enter, _):
            activateHighlighted()
        case (.left, _) where plain, (_, "h"):
            guard let path = tableView.highlightedIndexPath else { return false }
            if tableView.isEditing {
                if !confirming, tableView.editingStyleForRow(at: path) == .delete {
                    tableView.userDidTapEditingControl(forRowAt: path)
                }
            } else if swiped {
                tableView.focusNextSwipeAction()
            } else {
                tableView.revealTrailingSwipeActions(forRowAt: path)
            }
            noteRevealedActions()
        case (.right, _) where plain, (_, "l"):
            if swiped {
                if !tableView.focusPreviousSwipeAction() { tableView.hideSwipeActions() }
            } else if confirming {
                tableView.cancelDeleteConfirmation()
            } else {
                return false
            }
        case (.escape, _):
            if swiped {
                tableView.hideSwipeActions()
            } else if confirming {
                tableView.cancelDeleteConfirmation()
            } else if !clearSearch() {
                return false  // back: the navigation controller pops
            }
        case (.delete, _), (_, "d"):
            deleteHighlighted()
        case (_, "["):
            jumpSection(by: -1)
        case (_, "]"):
            jumpSection(by: 1)
        case (_, "/") where isSearchable:
            beginSearch()
        default:
            return false
        }
        setNeedsDisplay()
        return true
    }

    /// The keys that work on revealed actions: choose (Left/Right), do
    /// (Enter, and d/Delete for the destructive one), hide (Esc).
    static func actsOnRevealedActions(_ key: Key) -> Bool {
        switch (key.code, key.character) {
        case (.left, _) where key.modifiers.isEmpty, (.right, _) where key.modifiers.isEmpty,
            (.enter, _), (.escape, _), (.delete, _), (_, "h"), (_, "l"), (_, "d"):
            return true
        default:
            return false
        }
    }

    /// The row whose actions are showing: swiped, or its delete
    /// confirmation in edit mode.
    var revealedActionPath: IndexPath? {
        tableView.swipedIndexPath ?? tableView.deleteConfirmationIndexPath
    }

    /// Hides swipe actions and any delete confirmation.
    func hideRevealedActions() {
        tableView.hideSwipeActions()
        tableView.cancelDeleteConfirmation()
        revealedActionsAt = nil
    }

    /// Records where actions were just revealed (the highlighted row).
    func noteRevealedActions() {
        revealedActionsAt = revealedActionPath
    }

    /// The kit's invariant: revealed actions belong to the highlighted row and
    /// stay where they were revealed. Anything that breaks it — the
    /// highlight moving, a live update shifting the row under actions whose
    /// handlers captured its old index path — hides them.
    func keepRevealedActionsOnHighlight() {
        guard let revealed = revealedActionPath else {
            revealedActionsAt = nil
            return
        }
        if revealed != tableView.highlightedIndexPath || revealed != revealedActionsAt {
            hideRevealedActions()
        }
    }

    /// Enter: the focused swipe action, the delete confirmation, a text
    /// field (editing starts only here, in edit mode too where the table
    /// allows selection during editing), or a tap on the row.
    func activateHighlighted() {
        guard let path = tableView.highlightedIndexPath else { return }
        if let revealed = revealedActionPath {
            // Never act on another row's actions.
            guard revealed == path else { return hideRevealedActions() }
            if tableView.swipedIndexPath != nil {
                tableView.performFocusedSwipeAction()
            } else {
                tableView.userDidConfirmDeletion()
            }
            revealedActionsAt = nil
            return
        }
        if textFieldsSelectable, let field = tableView.cellForRow(at: path) as? TextFieldCell {
            beginTextEditing(field, at: path)
            return
        }
        _ = tableView.userDidTapRow(at: path)
    }

    /// `d` / Delete: the same path as the swipe's destructive action; in edit
    /// mode, the row's delete control and its confirmation.
    func deleteHighlighted() {
        guard let path = tableView.highlightedIndexPath else { return }
        if tableView.isEditing {
            if tableView.deleteConfirmationIndexPath == path {
                tableView.userDidConfirmDeletion()
                revealedActionsAt = nil
            } else if tableView.editingStyleForRow(at: path) == .delete {
                tableView.userDidTapEditingControl(forRowAt: path)
                noteRevealedActions()
            }
            return
        }
        guard tableView.revealTrailingSwipeActions(forRowAt: path) else { return }
        noteRevealedActions()
        guard let destructive = tableView.revealedSwipeActions.lastIndex(where: { $0.style == .destructive }) else {
            tableView.hideSwipeActions()
            return
        }
        while let focused = tableView.focusedSwipeActionIndex, focused > destructive, tableView.focusNextSwipeAction() {}
        tableView.performFocusedSwipeAction()
    }

    /// Shift+Up/Down, K/J in edit mode: one reorder step.
    func reorderHighlighted(by offset: Int) -> Bool {
        guard let path = tableView.highlightedIndexPath else { return false }
        guard tableView.isEditing else {
            // Say how, rather than do nothing, where the highlighted row can be reordered.
            guard let reordering = tableView.dataSource as? any TableViewReorderingDataSource,
                reordering.tableView(tableView, canMoveRowAt: path)
            else { return false }
            application?.showNotice("Rows are reordered in edit mode: press e, then K/J")
            return true
        }
        if let moved = tableView.userMoveRow(at: path, by: offset) {
            tableView.highlightRow(at: moved)
        }
        setNeedsDisplay()
        return true
    }

    /// The keys that work now, for the hint bar and help: only keys that
    /// do something on the highlighted row, in the words of what they do.
    var tableKeyHints: [KeyHint] {
        if searchEditor != nil { return searchKeyHints }
        if textEditor != nil {
            return [
                KeyHint("Enter", "done"), KeyHint("Esc", "cancel edit"), KeyHint("←→", "move cursor"),
                KeyHint("Backspace", "erase"),
            ]
        }
        if tableView.swipedIndexPath != nil {
            return [KeyHint("←→", "choose action"), KeyHint("Enter", "do it"), KeyHint("Esc", "hide actions")]
        }
        if tableView.deleteConfirmationIndexPath != nil {
            return [KeyHint("Enter/d", "delete"), KeyHint("Esc", "keep")]
        }
        let highlighted = tableView.highlightedIndexPath
        var hints = [KeyHint("↑↓/jk", "move")]
        if let highlighted, let enter = enterHint(forRowAt: highlighted) { hints.append(KeyHint("Enter", enter)) }
        hints += [KeyHint("PgUp/PgDn", "page", inBar: false), KeyHint("Home/End g/G", "first / last row", inBar: false)]
        if tableView.numberOfSections > 1 {
            // In the bar where the section index shows: the strip's keyboard way.
            hints.append(KeyHint("[ ]", "previous / next section", inBar: tableView.sectionIndexTitles != nil))
        }
        if tableView.isEditing {
            if let highlighted, tableView.editingStyleForRow(at: highlighted) == .delete {
                hints.append(KeyHint("d/Del", "delete"))
            }
            if let highlighted, tableView.canMoveRow(at: highlighted) {
                hints.append(KeyHint("Shift-↑↓/KJ", "reorder"))
            }
        } else if let highlighted, let actions = tableView.trailingSwipeActions(forRowAt: highlighted), !actions.actions.isEmpty {
            // Only rows that have actions offer the swipe.
            if actions.actions.contains(where: { $0.style == .destructive }) { hints.append(KeyHint("d/Del", "delete")) }
            hints.append(KeyHint("←/h", "swipe"))
        }
        return hints + searchKeyHints
    }

    /// `[` and `]`: the first row of the previous or next section (the
    /// section index from the keyboard).
    func jumpSection(by offset: Int) {
        let current = tableView.highlightedIndexPath?.section ?? 0
        var section = current + offset
        while section >= 0 && section < tableView.numberOfSections {
            if let first = tableView.firstRow(atOrAfter: IndexPath(row: 0, section: section)), first.section == section {
                tableView.highlightRow(at: first)
                try? tableView.scrollToRow(at: first, at: .top)
                return
            }
            section += offset
        }
    }
}
