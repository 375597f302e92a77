/// Turns screens into ANSI bytes, writing only what changed since the last frame.
///
/// It tracks the cursor and the current SGR style across frames (it assumes it
/// is the only writer), so an unchanged frame costs nothing and a one-row
/// change costs about one row of bytes.
/// ```swift
/// var renderer = ANSIRenderer(colors: true)
/// let first = renderer.render(screen)   // full redraw
/// let next = renderer.render(changed)   // only the difference
/// ```
public struct ANSIRenderer: Sendable {
    /// Whether colours are written (off for `NO_COLOR` and `TERM=dumb`);
    /// attributes such as reverse video are always written.
    public var colors: Bool
    /// The last frame rendered, or `nil` when the next must be a full redraw.
    public private(set) var previous: Screen?
    private var cursorRow = -1
    private var cursorColumn = -1
    private var currentStyle: Style?
    private var blankRow: [Cell] = []

    /// Creates a renderer whose first frame is a full redraw.
    ///
    /// ```swift
    /// var renderer = ANSIRenderer(colors: !TerminalOptions.current.monochrome)
    /// ```
    public init(colors: Bool) {
        self.colors = colors
    }

    /// Forgets the previous frame so that the next one is a full redraw (after
    /// a resize, or when something else may have written to the terminal).
    ///
    /// ```swift
    /// renderer.invalidate()
    /// ```
    public mutating func invalidate() {
        previous = nil
        cursorRow = -1
        cursorColumn = -1
        currentStyle = nil
    }

    /// The bytes that turn the previous frame into `screen`.
    ///
    /// - Complexity: O(width × height) comparisons; output proportional to the
    ///   cells that changed (the whole screen on a full redraw).
    /// ```swift
    /// let bytes = renderer.render(screen)
    /// ```
    public mutating func render(_ screen: Screen) -> [UInt8] {
        var out: [UInt8] = []
        let base: Screen
        // Rows that may differ; unchanged rows are skipped by the diff.
        var dirty: [Bool]
        // Which row of `base` each row is compared with (nil: a blank row),
        // so a scroll needs no copy of the previous frame.
        var sources: [Int?] = Array(0..<screen.height)
        if let previous, previous.width == screen.width, previous.height == screen.height {
            base = previous
            dirty = (0..<screen.height).map { !screen.row($0, equals: $0, of: previous) }
            if let (top, bottom, amount) = scrollIfShifted(from: base, to: screen, dirty: dirty, into: &out) {
                for row in top...bottom {
                    dirty[row] = true
                    sources[row] = (top...bottom).contains(row + amount) ? row + amount : nil
                }
            }
        } else {
            invalidate()
            // Reset the style, home, clear: the terminal is now a blank screen.
            out.append(contentsOf: "\u{1B}[0m\u{1B}[H\u{1B}[2J".utf8)
            currentStyle = .plain
            cursorRow = 0
            cursorColumn = 0
            base = Screen(width: screen.width, height: screen.height)
            dirty = Array(repeating: true, count: screen.height)
        }
        out.reserveCapacity(256)
        if blankRow.count != screen.width { blankRow = Array(repeating: .blank, count: screen.width) }
        for row in 0..<screen.height where dirty[row] {
            renderRow(row, of: screen, over: base, sourceRow: sources[row], into: &out)
        }
        previous = screen
        return out
    }

    /// When a band of rows moved up or down (a table scrolled), scrolls it in
    /// the terminal with a scroll region, so that only the rows that came in
    /// are written; `base` becomes what the terminal then shows.
    private mutating func scrollIfShifted(
        from base: Screen, to screen: Screen, dirty: [Bool],
        into out: inout [UInt8]
    ) -> (top: Int, bottom: Int, amount: Int)? {
        guard let (top, bottom, amount) = Self.scrollBand(from: base, to: screen, changed: dirty) else { return nil }
        // Rows scrolled in are erased with the current background: reset it first.
        out.append(contentsOf: "\u{1B}[0m\u{1B}[\(top + 1);\(bottom + 1)r".utf8)
        out.append(contentsOf: (amount > 0 ? "\u{1B}[\(amount)S" : "\u{1B}[\(-amount)T").utf8)
        out.append(contentsOf: "\u{1B}[r".utf8)
        currentStyle = .plain
        cursorRow = -1
        cursorColumn = -1
        return (top, bottom, amount)
    }

    /// The region and amount of the longest run of at least four rows that
    /// moved by 1 to 3 rows, or nil.
    ///
    /// - Complexity: O(width × height) per amount tried.
    static func scrollBand(from old: Screen, to new: Screen, changed known: [Bool]? = nil) -> (top: Int, bottom: Int, amount: Int)? {
        guard old.height == new.height, old.width == new.width else { return nil }
        let changed = known ?? (0..<new.height).map { !new.row($0, equals: $0, of: old) }
        guard changed.lazy.filter({ $0 }).count >= 4 else { return nil }
        var best: (top: Int, bottom: Int, amount: Int, length: Int)?
        for amount in [1, -1, 2, -2, 3, -3] {
            var runStart: Int?
            for row in 0...new.height {
                let source = row + amount
                let moved =
                    row < new.height && changed[row] && source >= 0 && source < old.height
                    && new.row(row, equals: source, of: old)
                if moved {
                    if runStart == nil { runStart = row }
                    continue
                }
                if let start = runStart {
                    let length = row - start
                    if length >= 4 && length > (best?.length ?? 0) {
                        // The region spans the rows the content comes from and goes to.
                        let top = amount > 0 ? start : start + amount
                        let bottom = amount > 0 ? row - 1 + amount : row - 1
                        best = (top, bottom, amount, length)
                    }
                    runStart = nil
                }
            }
        }
        return best.map { ($0.top, $0.bottom, $0.amount) }
    }

    private mutating func renderRow(_ row: Int, of screen: Screen, over base: Screen, sourceRow: Int?, into out: inout [UInt8]) {
        let width = screen.width
        let offset = row * width
        // The row compared with: the base's source row, or a blank row.
        let oldCells = sourceRow == nil ? blankRow : base.cells
        let oldOffset = (sourceRow ?? 0) * width
        var column = 0
        screen.cells.withUnsafeBufferPointer { new in
            oldCells.withUnsafeBufferPointer { old in
                while column < width {
                    let cell = new[offset + column]
                    let wideChanged =
                        cell.width == 2 && column + 1 < width
                        && new[offset + column + 1] != old[oldOffset + column + 1]
                    if cell == old[oldOffset + column] && !wideChanged {
                        column += 1
                        continue
                    }
                    var start = column
                    if cell.isContinuation {
                        // The right half changed: redraw its wide grapheme from the left half.
                        guard column > 0, new[offset + column - 1].width == 2 else {
                            column += 1
                            continue
                        }
                        start = column - 1
                    }
                    let leader = new[offset + start]
                    write(leader, row: row, column: start, screenWidth: width, into: &out)
                    column = start + max(1, Int(leader.width))
                }
            }
        }
    }

    private mutating func write(_ cell: Cell, row: Int, column: Int, screenWidth: Int, into out: inout [UInt8]) {
        if row != cursorRow || column != cursorColumn {
            out.append(contentsOf: "\u{1B}[\(row + 1);\(column + 1)H".utf8)
        }
        if currentStyle != cell.style {
            appendSGR(cell.style, into: &out)
            currentStyle = cell.style
        }
        out.append(contentsOf: cell.text.utf8)
        let advance = max(1, Int(cell.width))
        cursorRow = row
        // With autowrap off the cursor stays on the last column: position unknown.
        cursorColumn = column + advance >= screenWidth ? -1 : column + advance
    }

    private func appendSGR(_ style: Style, into out: inout [UInt8]) {
        var codes = "\u{1B}[0"
        let attributes = style.attributes
        if attributes.contains(.bold) { codes += ";1" }
        if attributes.contains(.dim) { codes += ";2" }
        if attributes.contains(.underline) { codes += ";4" }
        if attributes.contains(.reverse) { codes += ";7" }
        if colors {
            if let foreground = style.foreground {
                let value = Int(foreground.rawValue)
                codes += value < 8 ? ";\(30 + value)" : ";\(90 + value - 8)"
            }
            if let background = style.background {
                let value = Int(background.rawValue)
                codes += value < 8 ? ";\(40 + value)" : ";\(100 + value - 8)"
            }
        }
        codes += "m"
        out.append(contentsOf: codes.utf8)
    }
}
