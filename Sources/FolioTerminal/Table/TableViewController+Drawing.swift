import FolioTable

extension TableViewController {
    /// Draws the visible part of the table into `rect`.
    func drawTable(into screen: inout Screen, in fullRect: Rect) {
        frame = fullRect
        rowFrames = []
        titleFrames = []
        actionFrames = []
        confirmationFrame = nil
        indexFrames = []
        detailButtonFrames = []
        guard fullRect.width > 0, fullRect.height > 0 else { return }
        abandonStaleTextEditing()
        let rect = drawSectionIndex(into: &screen, in: fullRect)
        rowsRect = rect
        if tableView.viewportHeight != rect.height { tableView.viewportHeight = rect.height }
        if !tableView.hasLoadedData { tableView.reloadData() }
        keepHighlightVisible()
        keepRevealedActionsOnHighlight()
        var drewRow = false
        for item in tableView.layoutItems() {
            let y = rect.y + item.y
            let height = min(item.height, rect.maxY - y)
            guard height > 0, y >= rect.y else { continue }
            let itemRect = Rect(x: rect.x, y: y, width: rect.width, height: height)
            switch item.kind {
            case .header:
                if let title = item.title {
                    screen.draw(title, at: rect.x + 1, row: y, style: theme.header, maxWidth: rect.width - 2)
                    titleFrames.append((itemRect, true, title))
                }
            case .footer:
                if let title = item.title {
                    screen.draw(title, at: rect.x + 1, row: y, style: theme.secondary, maxWidth: rect.width - 2)
                    titleFrames.append((itemRect, false, title))
                }
            case .row(let path):
                drewRow = true
                rowFrames.append((itemRect, path))
                if let cell = tableView.cellForRow(at: path) {
                    drawRow(cell, at: path, in: itemRect, into: &screen)
                }
            }
        }
        // No row in the viewport means no row at all (O(visible), not O(sections)).
        if !drewRow {
            let middle = rect.y + min(rect.height - 1, max(0, rect.height / 2 - 1))
            let empty = searchText.isEmpty ? emptyStateText : "No results for “\(searchText)”"
            screen.draw(empty, in: rect.row(middle - rect.y), style: theme.secondary, alignment: .center)
        }
    }

    /// The highlighted row is always on screen: after a resize, or a live
    /// update that moved it, the table scrolls to it before drawing, so a
    /// key never acts on a row the user cannot see.
    func keepHighlightVisible() {
        guard let highlighted = tableView.highlightedIndexPath, !tableView.isRowFullyVisible(highlighted) else { return }
        try? tableView.scrollToRow(at: highlighted, at: .none)
    }

    /// One row: marker, editing control, content, accessory or actions.
    func drawRow(_ cell: TableViewCell, at path: IndexPath, in rect: Rect, into screen: inout Screen) {
        let highlighted = path == tableView.highlightedIndexPath
        // A swiped row, or one whose text is being edited, keeps its marker but
        // not reverse video: the focused action or the text cursor has it.
        let base = highlighted && tableView.swipedIndexPath != path && textEditorPath != path ? theme.highlighted : Style.plain
        screen.fill(rect, style: base)
        if highlighted { screen.draw(theme.highlightMarker, at: rect.x, row: rect.y, style: base) }
        var left = rect.x + 2
        if tableView.isEditing && tableView.allowsMultipleSelectionDuringEditing {
            // Multiple selection shows a check circle instead of editing controls.
            screen.draw(cell.isSelected ? "◉" : "○", at: left, row: rect.y, style: base.adding(.bold))
            left += 2
        } else if tableView.isEditing {
            switch tableView.editingStyleForRow(at: path) {
            case .delete: screen.draw("⊖", at: left, row: rect.y, style: base.adding(.bold))
            case .insert: screen.draw("⊕", at: left, row: rect.y, style: base.adding(.bold))
            case .none: break
            }
            left += 2
        }
        let right = drawTrailing(cell, at: path, in: rect, base: base, into: &screen)
        let content = Rect(x: left, y: rect.y, width: max(0, right - 1 - left), height: rect.height)
        drawContent(cell, at: path, in: content, base: base, into: &screen)
    }

    /// The right end of a row: swipe actions, a delete confirmation, or the
    /// accessory and reorder handle. Returns the first column they use.
    func drawTrailing(_ cell: TableViewCell, at path: IndexPath, in rect: Rect, base: Style, into screen: inout Screen) -> Int {
        var right = rect.maxX - 1
        if tableView.swipedIndexPath == path {
            // actions[0] is outermost: drawn at the far right.
            for (index, action) in tableView.revealedSwipeActions.enumerated() {
                let destructive = action.style == .destructive
                let focused = index == tableView.focusedSwipeActionIndex
                let title = (destructive ? theme.destructiveMarker + " " : "") + (action.title ?? "")
                // Brackets mark focus without colour; reverse video too.
                let label = (focused ? "[" : " ") + title + (focused ? "]" : " ")
                let width = DisplayWidth.of(label)
                guard right - width > rect.x + 4 else { break }
                right -= width - 1
                var style =
                    destructive
                    ? Style(foreground: .white, background: .red, attributes: .bold)
                    : Style(foreground: .white, background: .blue, attributes: .bold)
                if focused { style.attributes.insert(.reverse) }
                screen.draw(label, at: right, row: rect.y, style: style)
                actionFrames.append((Rect(x: right, y: rect.y, width: width, height: 1), index))
                right -= 2
            }
            return right - 1
        }
        if tableView.deleteConfirmationIndexPath == path {
            let label = " " + theme.destructiveMarker + " " + tableView.deleteConfirmationTitle(forRowAt: path) + " "
            let width = DisplayWidth.of(label)
            right -= width
            screen.draw(label, at: right, row: rect.y, style: Style(foreground: .white, background: .red, attributes: [.bold, .reverse]))
            confirmationFrame = Rect(x: right, y: rect.y, width: width, height: 1)
            return right - 1
        }
        if tableView.isEditing && tableView.canMoveRow(at: path) {
            screen.draw("≡", at: right, row: rect.y, style: base)
            right -= 2
        }
        let accessory: String =
            switch cell.currentAccessoryType {
            case .none: ""
            case .disclosureIndicator: "›"
            case .checkmark: "✓"
            case .detailButton: "ⓘ"
            case .detailDisclosureButton: "ⓘ ›"
            }
        if !accessory.isEmpty {
            let width = DisplayWidth.of(accessory)
            right -= width - 1
            screen.draw(accessory, at: right, row: rect.y, style: base.adding(.bold))
            if cell.currentAccessoryType.hasDetailButton {
                detailButtonFrames.append((Rect(x: right, y: rect.y, width: 1, height: 1), path))
            }
            right -= 1
        }
        return right
    }

    /// The cell's text in its style's layout.
    func drawContent(_ cell: TableViewCell, at path: IndexPath, in rect: Rect, base: Style, into screen: inout Screen) {
        guard rect.width > 0 else { return }
        let secondary = base.adding(.dim)
        if let field = cell as? TextFieldCell {
            drawTextField(field, at: path, in: rect, base: base, into: &screen)
            return
        }
        if let lines = cell.customLines() {
            drawLines(lines, in: rect, base: base, into: &screen)
            return
        }
        let text = cell.textLabel?.text ?? ""
        let detail = cell.detailTextLabel?.text ?? ""
        switch cell.style {
        case .default:
            screen.draw(text, at: rect.x, row: rect.y, style: base, maxWidth: rect.width)
        case .subtitle:
            drawLines(detail.isEmpty ? [text] : [text, detail], in: rect, base: base, into: &screen)
        case .value1:
            let detailWidth = min(DisplayWidth.of(detail), rect.width / 2)
            let used = screen.draw(
                text, at: rect.x, row: rect.y, style: base, maxWidth: rect.width - detailWidth - (detail.isEmpty ? 0 : 1))
            if !detail.isEmpty {
                let start = max(rect.x + used + 1, rect.maxX - detailWidth)
                screen.draw(detail, at: start, row: rect.y, style: secondary, maxWidth: rect.maxX - start)
            }
        case .value2:
            let labelWidth = min(12, rect.width / 3)
            screen.draw(detail, in: Rect(x: rect.x, y: rect.y, width: labelWidth, height: 1), style: base.adding(.bold), alignment: .right)
            screen.draw(text, at: rect.x + labelWidth + 1, row: rect.y, style: base, maxWidth: rect.width - labelWidth - 1)
        }
    }

    /// Lines on successive lines of a row; a one-line row puts the rest after
    /// the first, dim, separated by two spaces.
    func drawLines(_ lines: [String], in rect: Rect, base: Style, into screen: inout Screen) {
        guard let first = lines.first else { return }
        if rect.height >= lines.count || rect.height > 1 {
            for (offset, line) in lines.prefix(rect.height).enumerated() {
                screen.draw(line, at: rect.x, row: rect.y + offset, style: offset == 0 ? base : base.adding(.dim), maxWidth: rect.width)
            }
            return
        }
        let used = screen.draw(first, at: rect.x, row: rect.y, style: base, maxWidth: rect.width)
        let rest = lines.dropFirst().filter { !$0.isEmpty }.joined(separator: " · ")
        if !rest.isEmpty && used + 2 < rect.width {
            screen.draw(rest, at: rect.x + used + 2, row: rect.y, style: base.adding(.dim), maxWidth: rect.width - used - 2)
        }
    }

    /// A text-field cell: its label, then the field (editing or not).
    func drawTextField(_ cell: TextFieldCell, at path: IndexPath, in rect: Rect, base: Style, into screen: inout Screen) {
        var x = rect.x
        if let label = cell.textLabel?.text, !label.isEmpty {
            x += screen.draw(label, at: x, row: rect.y, style: base.adding(.bold), maxWidth: rect.width / 2) + 2
        }
        let fieldRect = Rect(x: x, y: rect.y, width: rect.maxX - x, height: 1)
        if let editor = textEditor, textEditorPath == path {
            editor.draw(into: &screen, in: fieldRect, style: base.adding(.underline), placeholderStyle: base.adding(.dim))
        } else {
            TextField(text: cell.text, placeholder: cell.placeholder ?? "")
                .draw(into: &screen, in: fieldRect, style: base, placeholderStyle: base.adding(.dim))
        }
    }
}

extension TableViewController {
    /// The section index strip down the right edge, when the data source has
    /// one; returns the rectangle left for the table.
    func drawSectionIndex(into screen: inout Screen, in rect: Rect) -> Rect {
        guard let titles = tableView.sectionIndexTitles, !titles.isEmpty else {
            return rect
        }
        let shown = titles.map { $0 == TableView.indexSearch ? "⌕" : $0 }
        let stripWidth = min(3, shown.map(DisplayWidth.of).max() ?? 1)
        guard rect.width > stripWidth + 10 else { return rect }
        let x = rect.maxX - stripWidth
        for (index, title) in shown.prefix(rect.height).enumerated() {
            screen.draw(title, in: Rect(x: x, y: rect.y + index, width: stripWidth, height: 1), style: theme.barButton, alignment: .center)
            indexFrames.append((Rect(x: x, y: rect.y + index, width: stripWidth, height: 1), index))
        }
        return rect.inset(right: stripWidth + 1)
    }
}
