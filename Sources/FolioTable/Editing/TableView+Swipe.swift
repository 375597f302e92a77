extension TableView {
    /// Whether a row's swipe actions are showing (UIKit's separate
    /// "editing for swipe" state, rule 3.7; `isEditing` stays false).
    ///
    /// ```swift
    /// if table.isSwipeEditing { table.hideSwipeActions() }
    /// ```
    package var isSwipeEditing: Bool { swipedIndexPath != nil }

    /// The actions a leftward swipe on a row would reveal: the delegate's
    /// configuration, or else a "Delete" action that commits `.delete`
    /// when the data source commits edits and the row can be edited
    /// (rules 3.8, 3.9). Empty when there is nothing to show.
    ///
    /// ```swift
    /// let titles = table.trailingSwipeActions(forRowAt: path)?.actions.map(\.title)
    /// ```
    package func trailingSwipeActions(forRowAt indexPath: IndexPath) -> SwipeActionsConfiguration? {
        if let configuration = delegate?.tableView(self, trailingSwipeActionsConfigurationForRowAt: indexPath) {
            return configuration
        }
        guard dataSourceCommitsEdits, canEditRow(at: indexPath),
            (delegate?.tableView(self, editingStyleForRowAt: indexPath) ?? .delete) == .delete
        else { return nil }
        let delete = ContextualAction(style: .destructive, title: deleteConfirmationTitle(forRowAt: indexPath)) {
            [weak self] _, completion in
            guard let self else { return completion(false) }
            self.commitEdit(.delete, forRowAt: indexPath)
            completion(true)
        }
        return SwipeActionsConfiguration(actions: [delete])
    }

    /// A leftward swipe on a row: hides any other revealed row (at most one
    /// is revealed), calls `willBeginEditingRowAt` and reveals the row's
    /// trailing actions with the innermost one (nearest the text) focused.
    /// Not offered in edit mode. Returns whether anything was revealed.
    ///
    /// ```swift
    /// if table.revealTrailingSwipeActions(forRowAt: path) { draw(table.revealedSwipeActions) }
    /// ```
    @discardableResult
    package func revealTrailingSwipeActions(forRowAt indexPath: IndexPath) -> Bool {
        guard !isEditing, containsRow(at: indexPath) else { return false }
        if swipedIndexPath == indexPath { return true }
        endSwipe()
        guard let configuration = trailingSwipeActions(forRowAt: indexPath), !configuration.actions.isEmpty else {
            return false
        }
        delegate?.tableView(self, willBeginEditingRowAt: indexPath)
        swipedIndexPath = indexPath
        swipeConfiguration = configuration
        revealedSwipeActions = configuration.actions
        focusedSwipeActionIndex = configuration.actions.count - 1
        return true
    }

    /// Focuses the next action outward (towards `actions[0]`); false when
    /// the outermost is already focused.
    ///
    /// ```swift
    /// table.focusNextSwipeAction()   // Left again
    /// ```
    @discardableResult
    package func focusNextSwipeAction() -> Bool {
        guard let index = focusedSwipeActionIndex, index > 0 else { return false }
        focusedSwipeActionIndex = index - 1
        return true
    }

    /// Focuses the next action inward; false when the innermost is focused.
    ///
    /// ```swift
    /// if !table.focusPreviousSwipeAction() { table.hideSwipeActions() }   // Right
    /// ```
    @discardableResult
    package func focusPreviousSwipeAction() -> Bool {
        guard let index = focusedSwipeActionIndex, index + 1 < revealedSwipeActions.count else { return false }
        focusedSwipeActionIndex = index + 1
        return true
    }

    /// Performs the focused action (rule 3.11): its handler runs, and when
    /// it calls its completion the swipe closes.
    ///
    /// ```swift
    /// table.performFocusedSwipeAction()  // Enter
    /// ```
    package func performFocusedSwipeAction() {
        guard let index = focusedSwipeActionIndex, index < revealedSwipeActions.count else { return }
        perform(revealedSwipeActions[index])
    }

    /// A full swipe: performs `actions[0]` when the configuration allows it (rule 3.10).
    ///
    /// ```swift
    /// table.performFullSwipe(onRowAt: path)
    /// ```
    @discardableResult
    package func performFullSwipe(onRowAt indexPath: IndexPath) -> Bool {
        guard revealTrailingSwipeActions(forRowAt: indexPath), let configuration = swipeConfiguration,
            configuration.performsFirstActionWithFullSwipe, let first = configuration.actions.first
        else {
            return false
        }
        perform(first)
        return true
    }

    private func perform(_ action: ContextualAction) {
        let revealedAt = swipedIndexPath
        action.handler(action) { [weak self] _ in
            guard let self, revealedAt != nil, self.swipedIndexPath != nil else { return }
            self.endSwipe()
        }
    }

    /// Hides revealed swipe actions (Esc, a scroll, another interaction),
    /// calling `didEndEditingRowAt` (rule 3.7).
    ///
    /// ```swift
    /// table.hideSwipeActions()   // Esc
    /// ```
    package func hideSwipeActions() {
        endSwipe()
    }

    func endSwipe(reportedPath: IndexPath?? = .none) {
        let path: IndexPath?
        switch reportedPath {
        case .some(let given): path = given
        case .none:
            guard let swiped = swipedIndexPath else { return }
            path = swiped
        }
        swipedIndexPath = nil
        swipeConfiguration = nil
        revealedSwipeActions = []
        focusedSwipeActionIndex = nil
        delegate?.tableView(self, didEndEditingRowAt: path)
    }
}
