import FolioTable

extension TableViewController {
    /// The longest search text a field takes.
    static let searchMaximumLength = 100

    /// Whether the search line shows: while typing, and while a filter is kept.
    var showsSearchLine: Bool { searchEditor != nil || !searchText.isEmpty }

    /// `/`: opens the search field on the filter in force (a search bar
    /// taking keys, as UISearchController's does).
    func beginSearch() {
        var editor = TextField(text: searchText, placeholder: "Search", maximumLength: Self.searchMaximumLength)
        editor.beginEditing()
        searchEditor = editor
        searchWillBegin()
        setNeedsDisplay()
    }

    /// Keys while the search field is open: each edit narrows the table at
    /// once; Enter keeps the filter and returns to the list, Esc clears it;
    /// Up/Down and clicks return to the list keeping the filter.
    func handleSearchEditing(_ event: InputEvent) -> Bool {
        guard var editor = searchEditor else { return false }
        let outcome = editor.handle(event)
        switch outcome {
        case .edited:
            searchEditor = editor
            if editor.lastInputWasCut {
                application?.showNotice("A search holds at most \(editor.maximumLength) characters; the rest was not typed")
            }
            applySearch(editor.text, now: false)
        case .ended(let commit):
            searchEditor = nil
            if !commit { applySearch("") }
            if searchText.isEmpty { searchDidEnd() }
        case .ignored:
            searchEditor = nil
            if searchText.isEmpty { searchDidEnd() }
            if case .key(let key) = event, key.code == .up || key.code == .down {
                return handleTableKey(key)
            }
            setNeedsDisplay()
            return !isMouse(event)
        }
        setNeedsDisplay()
        return true
    }

    /// Esc on the list while a filter is kept: clears it (before Esc goes back).
    func clearSearch() -> Bool {
        guard !searchText.isEmpty else { return false }
        applySearch("")
        searchDidEnd()
        return true
    }

    /// Records the new text and lets the screen narrow its rows: now, or
    /// (while typing) before the next frame or the next key for the list,
    /// so that keys read together narrow once, for the last of them.
    private func applySearch(_ text: String, now: Bool = true) {
        guard text != searchText else {
            if now { applyPendingSearch() }
            return
        }
        searchText = text
        searchIsPending = true
        if now { applyPendingSearch() }
        setNeedsDisplay()
    }

    /// Narrows the rows to `searchText` if typing changed it since.
    func applyPendingSearch() {
        guard searchIsPending else { return }
        searchIsPending = false
        searchTextDidChange(searchText)
    }

    private func isMouse(_ event: InputEvent) -> Bool {
        if case .mouse = event { return true }
        return false
    }

    /// The line above the table while searching ("/ text", the cursor in it)
    /// or while a filter is kept ("Filter: text"); returns the rectangle left
    /// for the table.
    func drawSearchLine(into screen: inout Screen, in rect: Rect) -> Rect {
        guard showsSearchLine, rect.height > 2, rect.width > 4 else { return rect }
        let line = rect.row(0)
        if let editor = searchEditor {
            let used = screen.draw("/ ", at: line.x + 1, row: line.y, style: theme.barButton)
            editor.draw(
                into: &screen, in: Rect(x: line.x + 1 + used, y: line.y, width: line.width - 2 - used, height: 1),
                style: Style(attributes: .underline), placeholderStyle: Style(attributes: .dim))
        } else {
            let used = screen.draw("Filter: ", at: line.x + 1, row: line.y, style: theme.secondary)
            screen.draw(searchText, at: line.x + 1 + used, row: line.y, style: Style(attributes: .bold), maxWidth: line.width - 2 - used)
        }
        return rect.inset(top: 1)
    }

    /// The keys of the search field, or those that start and clear a search.
    var searchKeyHints: [KeyHint] {
        if searchEditor != nil {
            return [
                KeyHint("Enter", "keep filter"), KeyHint("Esc", "clear search"), KeyHint("↑↓", "to the results"),
                KeyHint("Backspace", "erase"),
            ]
        }
        guard isSearchable else { return [] }
        var hints = [KeyHint("/", "search")]
        if !searchText.isEmpty { hints.append(KeyHint("Esc", "clear filter")) }
        return hints
    }
}
