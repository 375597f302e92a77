import FolioTable

extension TableViewController {
    /// Whether selecting a text-field row starts editing it: always outside
    /// edit mode; in edit mode where the table allows selection during
    /// editing (as a UITextField in an editing UITableView takes keys), the
    /// table staying in edit mode. Multiple selection during editing keeps
    /// Enter for the row's check circle.
    var textFieldsSelectable: Bool {
        guard tableView.isEditing else { return true }
        return tableView.allowsSelectionDuringEditing && !tableView.allowsMultipleSelectionDuringEditing
    }

    /// Starts editing a text-field cell (only ever from a selection).
    func beginTextEditing(_ cell: TextFieldCell, at path: IndexPath) {
        var editor = TextField(text: cell.text, placeholder: cell.placeholder ?? "")
        editor.beginEditing()
        cell.beginEditingText()
        textEditor = editor
        textEditorPath = path
        setNeedsDisplay()
    }

    /// Ends editing; the cell keeps the text (commit) or gets the old one back.
    /// The editor, not the cell, holds what was typed: a reload while the
    /// user types recycles the row's cell, and the row's new cell takes the
    /// edit, so the text reaches `onCommit` (or the row shows the data's
    /// current value on cancel) instead of being dropped with the old cell.
    func endTextEditing(commit: Bool) {
        guard let path = textEditorPath else { return }
        let cell = tableView.cellForRow(at: path) as? TextFieldCell
        if let cell, !cell.isEditingText { cell.beginEditingText() }
        if let editor = textEditor { cell?.text = editor.text }
        cell?.endEditingText(commit: commit)
        textEditor = nil
        textEditorPath = nil
        setNeedsDisplay()
    }

    /// Drops editing whose row went away (deleted by a live update), keeping
    /// what the cell had.
    func abandonStaleTextEditing() {
        guard let path = textEditorPath, !tableView.containsRow(at: path) else { return }
        textEditor = nil
        textEditorPath = nil
    }

    /// Keys while a field is editing: everything goes to it, except that
    /// Up/Down end editing (keeping the text) and move on.
    func handleTextEditing(_ event: InputEvent) -> Bool {
        abandonStaleTextEditing()
        guard var editor = textEditor else { return handleTableEvent(event) }
        let outcome = editor.handle(event)
        textEditor = editor
        switch outcome {
        case .edited:
            // The cell takes the text when editing ends: copying it on every
            // key would make typing n characters cost O(n²).
            if editor.lastInputWasCut {
                application?.showNotice("A field holds at most \(editor.maximumLength) characters; the rest was not typed")
            }
        case .ended(let commit):
            textEditor = editor
            endTextEditing(commit: commit)
        case .ignored:
            if case .key(let key) = event, key.code == .up || key.code == .down {
                endTextEditing(commit: true)
                return handleTableKey(key)
            }
            if case .mouse = event {
                endTextEditing(commit: true)
                return false
            }
        }
        setNeedsDisplay()
        return true
    }
}
