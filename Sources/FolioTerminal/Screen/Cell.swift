/// One column of a `Screen`: a grapheme cluster, its style and display width.
///
/// A two-column grapheme occupies its own cell (width 2) and the next one, a
/// continuation cell (empty text, width 0).
/// ```swift
/// let cell = Cell(text: "語", style: .plain, width: 2)
/// ```
public struct Cell: Hashable, Sendable {
    /// The grapheme drawn here; empty for the right half of a wide grapheme.
    public var text: String
    /// How the grapheme is drawn.
    public var style: Style
    /// 1 for most graphemes, 2 for wide ones, 0 for a continuation cell.
    public var width: UInt8

    /// Creates a cell.
    ///
    /// ```swift
    /// let a = Cell(text: "a", style: .plain, width: 1)
    /// ```
    public init(text: String, style: Style, width: UInt8) {
        self.text = text
        self.style = style
        self.width = width
    }

    /// A blank cell in the default style.
    ///
    /// ```swift
    /// Screen(width: 2, height: 1)[0, 0] == .blank // true
    /// ```
    public static let blank = Cell(text: " ", style: .plain, width: 1)

    /// Whether this is the right half of a wide grapheme.
    ///
    /// ```swift
    /// Cell(text: "", style: .plain, width: 0).isContinuation // true
    /// ```
    public var isContinuation: Bool { width == 0 }
}
