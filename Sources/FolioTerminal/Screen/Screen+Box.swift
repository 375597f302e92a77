extension Screen {
    /// Clears a rectangle and draws a single-line border around its edge.
    ///
    /// - Complexity: O(area).
    /// ```swift
    /// screen.drawBox(Rect(x: 10, y: 5, width: 40, height: 8))
    /// ```
    public mutating func drawBox(_ rect: Rect, style: Style = .plain) {
        guard rect.width >= 2, rect.height >= 2 else { return }
        fill(rect)
        let top = rect.y, bottom = rect.maxY - 1
        let left = rect.x, right = rect.maxX - 1
        for column in (left + 1)..<right {
            draw("─", at: column, row: top, style: style)
            draw("─", at: column, row: bottom, style: style)
        }
        for row in (top + 1)..<bottom {
            draw("│", at: left, row: row, style: style)
            draw("│", at: right, row: row, style: style)
        }
        draw("┌", at: left, row: top, style: style)
        draw("┐", at: right, row: top, style: style)
        draw("└", at: left, row: bottom, style: style)
        draw("┘", at: right, row: bottom, style: style)
    }

    /// Draws a divider across a box at `row`: "├────┤".
    ///
    /// ```swift
    /// screen.drawDivider(in: box, row: box.y + 3)
    /// ```
    public mutating func drawDivider(in rect: Rect, row: Int, style: Style = .plain) {
        guard rect.width >= 2 else { return }
        draw("├", at: rect.x, row: row, style: style)
        for column in (rect.x + 1)..<(rect.maxX - 1) { draw("─", at: column, row: row, style: style) }
        draw("┤", at: rect.maxX - 1, row: row, style: style)
    }
}
