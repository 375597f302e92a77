extension Application {
    /// The one-line key-hint bar at the bottom.
    func drawHintBar(into screen: inout Screen, row: Int) {
        let bar = Rect(x: 0, y: row, width: screen.width, height: 1)
        screen.fill(bar)
        // "? help" always shows, at the right end.
        let helpStart = bar.maxX - 7
        if helpStart > 1 && presentedAlert == nil {
            screen.draw("?", at: helpStart, row: row, style: Style(attributes: .bold))
            screen.draw("help", at: helpStart + 2, row: row, style: theme.hintBar)
        }
        var x = 1
        for hint in keyHints where hint.inBar && hint.keys != "?" {
            let text = hint.keys + " " + hint.action
            let width = DisplayWidth.of(text)
            guard x + width <= helpStart - 1 else { break }
            screen.draw(hint.keys, at: x, row: row, style: Style(attributes: .bold))
            screen.draw(hint.action, at: x + DisplayWidth.of(hint.keys) + 1, row: row, style: theme.hintBar)
            x += width + 2
        }
    }

    /// A short message in a box in the middle.
    func drawHUD(_ text: String, into screen: inout Screen, bounds: Rect) {
        let label = "✓ " + text
        let width = min(bounds.width, DisplayWidth.of(label) + 6)
        let box = Rect(x: bounds.x + (bounds.width - width) / 2, y: bounds.y + max(0, (bounds.height - 3) / 2), width: width, height: 3)
        screen.drawBox(box, style: Style(attributes: .bold))
        screen.draw(label, in: box.row(1).inset(left: 2, right: 2), style: Style(attributes: .bold), alignment: .center)
    }

    /// The `?` overlay: every key of the current screen.
    func drawHelp(into screen: inout Screen, bounds: Rect) {
        var hints = keyHints.filter { $0.keys != "?" }
        hints.append(KeyHint("Ctrl-C", "quit at once"))
        if suspendHandler != nil { hints.append(KeyHint("Ctrl-Z", "suspend (fg resumes)")) }
        let keyWidth = min(16, hints.map { DisplayWidth.of($0.keys) }.max() ?? 0)
        let width = min(bounds.width, max(30, keyWidth + 4 + (hints.map { DisplayWidth.of($0.action) }.max() ?? 0) + 3))
        let height = min(bounds.height, hints.count + 4)
        let box = Rect(x: bounds.x + (bounds.width - width) / 2, y: bounds.y + max(0, (bounds.height - height) / 2), width: width, height: height)
        screen.drawBox(box)
        screen.draw(" Keys ", in: box.row(0), style: theme.title, alignment: .center)
        var row = box.y + 1
        for hint in hints where row < box.maxY - 2 {
            screen.draw(hint.keys, at: box.x + 2, row: row, style: Style(attributes: .bold), maxWidth: keyWidth)
            screen.draw(hint.action, at: box.x + 3 + keyWidth, row: row, maxWidth: box.maxX - 1 - (box.x + 3 + keyWidth))
            row += 1
        }
        screen.draw("any key closes help", in: Rect(x: box.x + 1, y: box.maxY - 2, width: width - 2, height: 1),
                    style: theme.secondary, alignment: .center)
    }
}
