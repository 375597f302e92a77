/// A grid of cells that views draw into; drivers turn it into terminal output.
///
/// A `Screen` is a value: drawing into a copy never touches the original, and
/// two screens compare cell by cell (the ANSI driver writes only the cells
/// that differ from the previous frame).
/// ```swift
/// var screen = Screen(width: 20, height: 2)
/// screen.draw("Planets", at: 0, row: 0, style: Style(attributes: .bold))
/// print(screen.text)
/// ```
public struct Screen: Hashable, Sendable {
    /// The number of columns.
    public let width: Int
    /// The number of rows.
    public let height: Int
    /// The cells, row by row.
    public private(set) var cells: [Cell]

    /// Creates a blank screen.
    ///
    /// ```swift
    /// let screen = Screen(width: 120, height: 40)
    /// ```
    public init(width: Int, height: Int) {
        precondition(width >= 0 && height >= 0, "Screen size \(width)x\(height) is negative")
        self.width = width
        self.height = height
        self.cells = Array(repeating: .blank, count: width * height)
    }

    /// The whole screen as a rectangle.
    ///
    /// ```swift
    /// Screen(width: 80, height: 24).bounds // Rect(x: 0, y: 0, width: 80, height: 24)
    /// ```
    public var bounds: Rect { Rect(x: 0, y: 0, width: width, height: height) }

    /// The cell at a column and row.
    ///
    /// ```swift
    /// screen[0, 0].text // "P"
    /// ```
    public subscript(column: Int, row: Int) -> Cell {
        get {
            precondition(
                column >= 0 && column < width && row >= 0 && row < height,
                "cell (\(column), \(row)) is outside the \(width)x\(height) screen")
            return cells[row * width + column]
        }
        set {
            precondition(
                column >= 0 && column < width && row >= 0 && row < height,
                "cell (\(column), \(row)) is outside the \(width)x\(height) screen")
            cells[row * width + column] = newValue
        }
    }

    /// Fills a rectangle (clipped to the screen) with blanks in `style`.
    ///
    /// - Complexity: O(area).
    /// ```swift
    /// screen.fill(screen.bounds.row(0), style: Style(attributes: .reverse))
    /// ```
    public mutating func fill(_ rect: Rect, style: Style = .plain, character: String = " ") {
        let blank = Cell(text: character, style: style, width: 1)
        let x0 = max(0, rect.x), x1 = min(width, rect.maxX)
        let y0 = max(0, rect.y), y1 = min(height, rect.maxY)
        guard x0 < x1 else { return }
        for row in y0..<max(y0, y1) {
            let base = row * width
            if x0 > 0 && cells[base + x0].isContinuation { cells[base + x0 - 1] = blank }
            for column in x0..<x1 { cells[base + column] = blank }
            if x1 < width && cells[base + x1].isContinuation { cells[base + x1] = blank }
        }
    }

    /// Applies `change` to the style of every cell in a rectangle.
    ///
    /// - Complexity: O(area).
    /// ```swift
    /// screen.restyle(screen.bounds.row(3)) { $0.attributes.insert(.reverse) }
    /// ```
    public mutating func restyle(_ rect: Rect, _ change: (inout Style) -> Void) {
        let x0 = max(0, rect.x), x1 = min(width, rect.maxX)
        let y0 = max(0, rect.y), y1 = min(height, rect.maxY)
        guard x0 < x1 else { return }
        for row in y0..<max(y0, y1) {
            for column in x0..<x1 { change(&cells[row * width + column].style) }
        }
    }

    /// Places one grapheme of width 1 or 2 at a cell, keeping wide graphemes
    /// whole: one that would not fit before `limit` is not drawn.
    ///
    /// Returns the columns used (0 when it did not fit).
    @discardableResult
    mutating func put(_ text: String, width graphemeWidth: Int, column: Int, row: Int, style: Style, limit: Int) -> Int {
        guard row >= 0, row < height, column >= 0, column + graphemeWidth <= min(limit, width) else { return 0 }
        let base = row * width
        // Overwriting half of a wide grapheme blanks its other half.
        if cells[base + column].isContinuation && column > 0 {
            cells[base + column - 1] = Cell(text: " ", style: cells[base + column - 1].style, width: 1)
        }
        let end = column + graphemeWidth
        if end < width && cells[base + end].isContinuation {
            cells[base + end] = Cell(text: " ", style: cells[base + end].style, width: 1)
        }
        cells[base + column] = Cell(text: text, style: style, width: UInt8(graphemeWidth))
        if graphemeWidth == 2 {
            cells[base + column + 1] = Cell(text: "", style: style, width: 0)
        }
        return graphemeWidth
    }
}
