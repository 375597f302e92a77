extension AlertController {
    /// Draws the alert over `bounds` (the whole screen). The buttons always
    /// show: on a short screen the message is cut (its last line ends in
    /// "…"), then the title, then a sheet's Cancel joins the other buttons,
    /// and at the last the buttons scroll with the focus. An alert leaves a
    /// line above and below where the screen has room (the bars stay in sight).
    func draw(into screen: inout Screen, bounds: Rect) {
        prepareFocus()
        let shown = displayedActions
        let longest = ([title ?? ""] + shown.map { "▸ ✕ " + $0.title }).map(DisplayWidth.of).max() ?? 0
        // A sheet spans the screen but for a margin, which a narrow screen gives up before a button's label.
        let preferred = preferredStyle == .alert ? max(36, longest + 6) : max(bounds.width - 4, longest + 6)
        let width = max(8, min(bounds.width - 2, preferredStyle == .alert ? min(preferred, 60) : preferred))
        let inner = width - 4
        let limit = bounds.height >= 8 ? bounds.height - 2 : bounds.height
        let titleLines = title.map { $0.isEmpty ? [] : DisplayText.wrap($0, width: inner) } ?? []
        let shownMessage = [message, isShowingDetail ? detail : nil].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " — ")
        let messageLines = shownMessage.isEmpty ? [] : DisplayText.wrap(shownMessage, width: inner)
        // A sheet's Cancel has a box of its own (3 lines and a gap) only while the text keeps up to 3 lines.
        let textWanted = min(3, titleLines.count + messageLines.count)
        let cancelApart =
            preferredStyle == .actionSheet && shown.last?.style == .cancel && shown.count > 1
            && 2 + (shown.count - 1) + 4 + (textWanted > 0 ? textWanted + 1 : 0) <= limit
        let grouped = cancelApart ? shown.count - 1 : shown.count
        let cancelHeight = cancelApart ? 4 : 0
        // Buttons first: what is left (after borders and the divider) is for the text.
        let buttonRows = min(grouped, max(1, limit - 2 - cancelHeight))
        let text = fitted(title: titleLines, message: messageLines, width: inner, lines: limit - 2 - cancelHeight - buttonRows - 1)
        let mainHeight = 2 + text.count + (text.isEmpty || grouped == 0 ? 0 : 1) + buttonRows
        let total = min(bounds.height, mainHeight + cancelHeight)
        let x = bounds.x + (bounds.width - width) / 2
        let y = preferredStyle == .alert ? bounds.y + max(0, (bounds.height - total) / 2) : bounds.maxY - total
        buttonFrames = []
        var row = y
        if grouped > 0 || !text.isEmpty {
            let box = Rect(x: x, y: row, width: width, height: min(mainHeight, bounds.maxY - row))
            screen.drawBox(box)
            row += 1
            for (line, style) in text where row < box.maxY - 1 {
                screen.draw(line, in: Rect(x: x + 2, y: row, width: inner, height: 1), style: style, alignment: .center)
                row += 1
            }
            if !text.isEmpty && grouped > 0 {
                screen.drawDivider(in: box, row: row)
                row += 1
            }
            // More buttons than rows: a window of them that holds the focused one.
            let first = min(max(0, (focusedIndex < grouped ? focusedIndex : 0) - buttonRows + 1), grouped - buttonRows)
            for index in first..<(first + buttonRows) where row < box.maxY - 1 {
                drawButton(shown[index], index: index, into: &screen, row: row, x: x + 1, width: width - 2)
                row += 1
            }
            row = box.maxY
        }
        if cancelApart {
            row += 1
            let box = Rect(x: x, y: row, width: width, height: 3)
            screen.drawBox(box)
            drawButton(shown[shown.count - 1], index: shown.count - 1, into: &screen, row: row + 1, x: x + 1, width: width - 2)
        }
    }

    /// The title's and message's lines, at most `lines` of them: the title
    /// keeps one line (two with room) and the message the rest; a cut
    /// text's last line ends in "…", so a cut always shows.
    private func fitted(title: [String], message: [String], width: Int, lines: Int) -> [(String, FolioTerminal.Style)] {
        guard lines > 0 else { return [] }
        func cut(_ all: [String], to count: Int) -> [String] {
            guard all.count > count else { return all }
            guard count > 0 else { return [] }
            let last = DisplayText.truncate(all[count - 1], toWidth: width - 1)
            return Array(all.prefix(count - 1)) + [last.hasSuffix("…") ? last : last + "…"]
        }
        // One line only: the message's (what is asked), else the title's.
        if lines == 1 { return message.isEmpty ? cut(title, to: 1).map { ($0, theme.title) } : cut(message, to: 1).map { ($0, .plain) } }
        let keptTitle = cut(title, to: max(min(title.count, lines - message.count), min(title.count, message.isEmpty ? lines : 1)))
        let keptMessage = cut(message, to: lines - keptTitle.count)
        return keptTitle.map { ($0, theme.title) } + keptMessage.map { ($0, FolioTerminal.Style.plain) }
    }

    private func drawButton(_ action: AlertAction, index: Int, into screen: inout Screen, row: Int, x: Int, width: Int) {
        let focused = index == focusedIndex
        var style: FolioTerminal.Style =
            switch action.style {
            case .destructive: theme.destructive
            case .cancel: FolioTerminal.Style(attributes: .bold)
            case .default: theme.barButton
            }
        if focused { style = style.adding(.reverse) }
        let label = (action.style == .destructive ? theme.destructiveMarker + " " : "") + action.title
        let rect = Rect(x: x, y: row, width: width, height: 1)
        screen.fill(rect, style: focused ? style : FolioTerminal.Style.plain)
        screen.draw(label, in: rect.inset(left: 2, right: 2), style: style, alignment: .center)
        if focused { screen.draw(theme.highlightMarker, at: x, row: row, style: style) }
        while buttonFrames.count <= index { buttonFrames.append(Rect(x: 0, y: 0, width: 0, height: 0)) }
        buttonFrames[index] = rect
    }
}
