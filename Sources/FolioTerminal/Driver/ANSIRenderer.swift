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
        if let previous, previous.width == screen.width, previous.height == screen.height {
            base = previous
        } else {
            invalidate()
            // Reset the style, home, clear: the terminal is now a blank screen.
            out.append(contentsOf: "\u{1B}[0m\u{1B}[H\u{1B}[2J".utf8)
            currentStyle = .plain
            cursorRow = 0
            cursorColumn = 0
            base = Screen(width: screen.width, height: screen.height)
        }
        out.reserveCapacity(256)
        for row in 0..<screen.height {
            renderRow(row, of: screen, over: base, into: &out)
        }
        previous = screen
        return out
    }

    private mutating func renderRow(_ row: Int, of screen: Screen, over base: Screen, into out: inout [UInt8]) {
        let width = screen.width
        let offset = row * width
        var column = 0
        screen.cells.withUnsafeBufferPointer { new in
            base.cells.withUnsafeBufferPointer { old in
                while column < width {
                    let cell = new[offset + column]
                    let wideChanged = cell.width == 2 && column + 1 < width && new[offset + column + 1] != old[offset + column + 1]
                    if cell == old[offset + column] && !wideChanged {
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
