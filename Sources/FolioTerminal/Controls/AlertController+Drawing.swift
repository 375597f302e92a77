extension AlertController {
    /// Draws the alert over `bounds` (the whole screen).
    func draw(into screen: inout Screen, bounds: Rect) {
        prepareFocus()
        let shown = displayedActions
        let longest = ([title ?? ""] + shown.map { "▸ ✕ " + $0.title }).map(DisplayWidth.of).max() ?? 0
        let preferred = preferredStyle == .alert ? max(36, longest + 6) : bounds.width - 4
        let width = max(8, min(bounds.width - 2, preferredStyle == .alert ? min(preferred, 60) : preferred))
        let inner = width - 4
        var text: [(String, FolioTerminal.Style)] = []
        if let title, !title.isEmpty {
            text += DisplayText.wrap(title, width: inner).map { ($0, theme.title) }
        }
        if let message, !message.isEmpty {
            text += DisplayText.wrap(message, width: inner).map { ($0, FolioTerminal.Style.plain) }
        }
        let cancelApart = preferredStyle == .actionSheet && shown.last?.style == .cancel
        let grouped = cancelApart ? shown.count - 1 : shown.count
        // Height: borders, text, divider, grouped buttons; then a gap and Cancel's own box.
        let mainHeight = 2 + text.count + (text.isEmpty || grouped == 0 ? 0 : 1) + grouped
        let cancelHeight = cancelApart ? 4 : 0
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
            for index in 0..<grouped where row < box.maxY - 1 {
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

    private func drawButton(_ action: AlertAction, index: Int, into screen: inout Screen, row: Int, x: Int, width: Int) {
        let focused = index == focusedIndex
        var style: FolioTerminal.Style = switch action.style {
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
