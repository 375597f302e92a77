extension Application {
    /// The one-line key-hint bar at the bottom. While text is typed, `?`
    /// types too, so "? help" is not offered then.
    func drawHintBar(into screen: inout Screen, row: Int) {
        let bar = Rect(x: 0, y: row, width: screen.width, height: 1)
        screen.fill(bar)
        let offersHelp = presentedAlert == nil && !root.isEditingText
        // Where the hints and a notice must stop: before the status when there is one.
        var end: Int?
        // The status, then the sync indicator to its left: each a lasting state, shown before the hints.
        let indicator = root.syncIndicator
        indicator?.application = self
        let states = [status.map { "● " + $0 }, indicator?.text].compactMap { $0 }
        var right = bar.maxX - (offersHelp ? 8 : 1)
        for text in states {
            let start = max(1, right - DisplayWidth.of(text))
            screen.draw(text, at: start, row: row, style: Style(attributes: [.bold, .reverse]), maxWidth: max(0, right - start))
            end = start - 1
            right = start - 1
        }
        if let notice, presentedAlert == nil {
            screen.draw(notice, at: 1, row: row, style: Style(attributes: .bold), maxWidth: end.map { max(0, $0 - 2) } ?? bar.width - 2)
            return
        }
        let helpStart = offersHelp ? bar.maxX - 7 : bar.maxX + 1
        if offersHelp && helpStart > 1 {
            screen.draw("?", at: helpStart, row: row, style: Style(attributes: .bold))
            screen.draw("help", at: helpStart + 2, row: row, style: theme.hintBar)
        }
        var x = 1
        // "?" is help's own slot, except over an alert, where it is the alert's (its details).
        for hint in keyHints where hint.inBar && (hint.keys != "?" || !offersHelp) {
            let text = hint.keys + " " + hint.action
            let width = DisplayWidth.of(text)
            guard x + width <= min(helpStart, end ?? helpStart) - 1 else { break }
            screen.draw(hint.keys, at: x, row: row, style: Style(attributes: .bold))
            screen.draw(hint.action, at: x + DisplayWidth.of(hint.keys) + 1, row: row, style: theme.hintBar)
            x += width + 2
        }
    }

    /// A short success message in a box in the middle, wrapped to fit (never cut).
    func drawHUD(_ text: String, into screen: inout Screen, bounds: Rect) {
        let inner = max(1, min(bounds.width - 4, 60))
        let lines = DisplayText.wrap("✓ " + text, width: inner)
        let width = min(bounds.width, (lines.map(DisplayWidth.of).max() ?? 0) + 4)
        let height = min(bounds.height, lines.count + 2)
        let box = Rect(
            x: bounds.x + (bounds.width - width) / 2, y: bounds.y + max(0, (bounds.height - height) / 2),
            width: width, height: height)
        screen.drawBox(box, style: Style(attributes: .bold))
        for (index, line) in lines.enumerated() where box.y + 1 + index < box.maxY - 1 {
            screen.draw(
                line, in: Rect(x: box.x + 2, y: box.y + 1 + index, width: max(0, width - 4), height: 1),
                style: Style(attributes: .bold), alignment: .center)
        }
    }

    /// Every key of the help overlay: the screen's, the application's own.
    var helpHints: [KeyHint] {
        var hints = keyHints.filter { $0.keys != "?" }
        hints.append(KeyHint("Ctrl-C", "quit at once"))
        if suspendHandler != nil { hints.append(KeyHint("Ctrl-Z", "suspend (fg resumes)")) }
        return hints
    }

    /// How many hint lines the help box shows at once in `bounds`.
    func helpLinesShown(in bounds: Rect) -> Int { max(1, bounds.height - 4) }

    /// The `?` overlay over a dimmed screen: every key of the current
    /// screen; when they do not all fit, ↑↓ scroll them.
    func drawHelp(into screen: inout Screen, bounds: Rect) {
        screen.restyle(bounds) { $0.attributes.insert(.dim) }
        let hints = helpHints
        let keyWidth = min(16, hints.map { DisplayWidth.of($0.keys) }.max() ?? 0)
        let width = min(bounds.width, max(30, keyWidth + 4 + (hints.map { DisplayWidth.of($0.action) }.max() ?? 0) + 3))
        let shown = min(hints.count, helpLinesShown(in: bounds))
        let height = min(bounds.height, shown + 4)
        let box = Rect(
            x: bounds.x + (bounds.width - width) / 2, y: bounds.y + max(0, (bounds.height - height) / 2),
            width: width, height: height)
        screen.drawBox(box)
        helpOffset = max(0, min(helpOffset, hints.count - shown))
        let scrolls = hints.count > shown
        helpScrolls = scrolls
        screen.draw(
            scrolls ? " Keys \(helpOffset + 1)–\(helpOffset + shown) of \(hints.count) " : " Keys ",
            in: box.row(0), style: theme.title, alignment: .center)
        var row = box.y + 1
        for hint in hints.dropFirst(helpOffset).prefix(shown) where row < box.maxY - 2 {
            screen.draw(hint.keys, at: box.x + 2, row: row, style: Style(attributes: .bold), maxWidth: keyWidth)
            screen.draw(hint.action, at: box.x + 3 + keyWidth, row: row, maxWidth: box.maxX - 1 - (box.x + 3 + keyWidth))
            row += 1
        }
        screen.draw(
            scrolls ? "↑↓ more · other keys close" : "any key closes help",
            in: Rect(x: box.x + 1, y: box.maxY - 2, width: width - 2, height: 1), style: theme.secondary, alignment: .center)
    }
}
