extension Screen {
    /// How text sits in the space given to it.
    ///
    /// ```swift
    /// screen.draw("Title", in: bar, alignment: .center)
    /// ```
    public enum Alignment: Sendable {
        /// Where the text sits in its space.
        case left, center, right
    }

    /// Draws text (made safe by `DisplayText`) starting at a cell, cut with
    /// "…" at `maxWidth` columns or the screen's edge. Returns the columns used.
    ///
    /// - Complexity: O(min(n, maxWidth)) graphemes.
    /// ```swift
    /// let used = screen.draw("Mercury", at: 2, row: 3, style: .plain)
    /// ```
    @discardableResult
    public mutating func draw(_ text: String, at column: Int, row: Int, style: Style = .plain, maxWidth: Int? = nil) -> Int {
        guard row >= 0, row < height, column < width else { return 0 }
        let available = min(maxWidth ?? width, width - column)
        var x = column
        let limit = column + available
        DisplayText.forEachFitting(text, width: available) { grapheme, graphemeWidth in
            x += put(grapheme, width: graphemeWidth, column: x, row: row, style: style, limit: limit)
        }
        return x - column
    }

    /// Draws text in a one-row rectangle with an alignment, cut with "…" when
    /// it does not fit. Returns the column where the text starts.
    ///
    /// - Complexity: O(n) graphemes (measured once, drawn once).
    /// ```swift
    /// screen.draw("Edit", in: Rect(x: 0, y: 0, width: 80, height: 1), alignment: .right)
    /// ```
    @discardableResult
    public mutating func draw(_ text: String, in rect: Rect, style: Style = .plain, alignment: Alignment = .left) -> Int {
        guard rect.height > 0, rect.width > 0 else { return rect.x }
        let textWidth = min(DisplayWidth.of(text), rect.width)
        let start: Int
        switch alignment {
        case .left: start = rect.x
        case .center: start = rect.x + (rect.width - textWidth) / 2
        case .right: start = rect.maxX - textWidth
        }
        draw(text, at: start, row: rect.y, style: style, maxWidth: rect.maxX - start)
        return start
    }

    /// The screen as plain text, one line per row, trailing blanks kept so
    /// that every line is `width` columns wide.
    ///
    /// - Complexity: O(width × height).
    /// ```swift
    /// print(screen.text)
    /// ```
    public var text: String {
        var out = ""
        out.reserveCapacity(cells.count + height)
        for row in 0..<height {
            out += line(row)
            if row < height - 1 { out += "\n" }
        }
        return out
    }

    /// One row as plain text.
    ///
    /// - Complexity: O(width).
    /// ```swift
    /// screen.line(0) // "Planets     "
    /// ```
    public func line(_ row: Int) -> String {
        var out = ""
        for column in 0..<width {
            out += cells[row * width + column].text
        }
        return out
    }

    /// Where a row uses reverse video, as a line of "#" (reverse) and " "
    /// (normal): the part of a snapshot that shows the highlight without colour.
    ///
    /// - Complexity: O(width).
    /// ```swift
    /// screen.reverseMask(3) // "#######     "
    /// ```
    public func reverseMask(_ row: Int) -> String {
        var out = ""
        for column in 0..<width {
            let cell = cells[row * width + column]
            out += cell.style.attributes.contains(.reverse) ? "#" : " "
        }
        return out
    }
}
