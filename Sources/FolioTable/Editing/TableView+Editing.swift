extension TableView {
    /// Enters or leaves edit mode and tells every visible cell (rule 3.1);
    /// hides swipe actions and any delete confirmation.
    ///
    /// ```swift
    /// table.setEditing(!table.isEditing, animated: true)  // the Edit/Done button
    /// ```
    public func setEditing(_ editing: Bool, animated: Bool = false) {
        endSwipe()
        cancelReordering()
        deleteConfirmationIndexPath = nil
        guard editing != isEditing else { return }
        isEditing = editing
        if !allowsMultipleSelectionNow, selectedRows.count > 1 {
            for path in selectedRows.sorted().dropFirst() { setSelected(false, at: path) }
        }
        for (path, cell) in visibleCells { applyState(to: cell, at: path) }
    }

    /// Whether a row is editable: `canEditRowAt`, true when unanswered (rule 3.2).
    ///
    /// ```swift
    /// table.canEditRow(at: path)
    /// ```
    package func canEditRow(at indexPath: IndexPath) -> Bool {
        dataSource?.tableView(self, canEditRowAt: indexPath) ?? false
    }

    /// The editing control a row shows in edit mode: `.none` for rows that
    /// cannot be edited (rule 3.2) and when multiple selection during
    /// editing shows checkmarks instead (rule 3.6); else the delegate's
    /// style, `.delete` by default.
    ///
    /// ```swift
    /// if table.editingStyleForRow(at: path) == .insert { drawPlus() }
    /// ```
    package func editingStyleForRow(at indexPath: IndexPath) -> TableViewCell.EditingStyle {
        guard !allowsMultipleSelectionDuringEditing, canEditRow(at: indexPath) else { return .none }
        return delegate?.tableView(self, editingStyleForRowAt: indexPath) ?? .delete
    }

    /// The title of a row's delete confirmation: the delegate's, or "Delete" (rule 3.5).
    ///
    /// ```swift
    /// let title = table.deleteConfirmationTitle(forRowAt: path)   // "Delete"
    /// ```
    package func deleteConfirmationTitle(forRowAt indexPath: IndexPath) -> String {
        delegate?.tableView(self, titleForDeleteConfirmationButtonForRowAt: indexPath) ?? "Delete"
    }

    /// A tap on a row's editing control in edit mode: an insert control
    /// commits at once; a delete control reveals the confirmation button
    /// (rule 3.4). Returns the style acted on.
    ///
    /// ```swift
    /// if table.userDidTapEditingControl(forRowAt: path) == .delete { table.userDidConfirmDeletion() }
    /// ```
    @discardableResult
    package func userDidTapEditingControl(forRowAt indexPath: IndexPath) -> TableViewCell.EditingStyle {
        guard isEditing, containsRow(at: indexPath), dataSourceCommitsEdits else {
            return .none
        }
        let style = editingStyleForRow(at: indexPath)
        switch style {
        case .none:
            break
        case .insert:
            commitEdit(.insert, forRowAt: indexPath)
        case .delete:
            if let old = deleteConfirmationIndexPath { visibleCells[old]?.showingDeleteConfirmation = false }
            deleteConfirmationIndexPath = indexPath
            visibleCells[indexPath]?.showingDeleteConfirmation = true
        }
        return style
    }

    /// A tap on the revealed delete confirmation button: commits `.delete`
    /// for that row (rule 3.4); the data source updates its model and the table.
    ///
    /// ```swift
    /// table.userDidConfirmDeletion()
    /// ```
    package func userDidConfirmDeletion() {
        guard let path = deleteConfirmationIndexPath, dataSourceCommitsEdits else {
            return
        }
        deleteConfirmationIndexPath = nil
        visibleCells[path]?.showingDeleteConfirmation = false
        commitEdit(.delete, forRowAt: path)
    }

    /// Hides a revealed delete confirmation without deleting.
    ///
    /// ```swift
    /// table.cancelDeleteConfirmation()   // Esc
    /// ```
    package func cancelDeleteConfirmation() {
        guard let path = deleteConfirmationIndexPath else { return }
        deleteConfirmationIndexPath = nil
        visibleCells[path]?.showingDeleteConfirmation = false
    }
}
