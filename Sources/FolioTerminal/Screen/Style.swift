/// How a cell is drawn: colours and text attributes.
///
/// Colour is decoration only: everything that matters (the highlighted row,
/// destructive actions) is also shown by reverse video or a text marker, so
/// that `NO_COLOR` and `TERM=dumb` lose nothing.
/// ```swift
/// let selected = Style(attributes: .reverse)
/// let danger = Style(foreground: .red, attributes: .bold)
/// ```
public struct Style: Hashable, Sendable {
    /// The text colour, or `nil` for the terminal's default.
    public var foreground: Color?
    /// The background colour, or `nil` for the terminal's default.
    public var background: Color?
    /// Bold, dim, underline, reverse video.
    public var attributes: Attributes

    /// Creates a style.
    ///
    /// ```swift
    /// let header = Style(foreground: .cyan, attributes: .bold)
    /// ```
    public init(foreground: Color? = nil, background: Color? = nil, attributes: Attributes = []) {
        self.foreground = foreground
        self.background = background
        self.attributes = attributes
    }

    /// The terminal's default style.
    ///
    /// ```swift
    /// screen.fill(rect, style: .plain)
    /// ```
    public static let plain = Style()

    /// Text attributes that survive without colour.
    ///
    /// ```swift
    /// let attributes: Style.Attributes = [.bold, .reverse]
    /// ```
    public struct Attributes: OptionSet, Hashable, Sendable {
        /// The raw bits.
        public let rawValue: UInt8
        /// Creates attributes from raw bits.
        ///
        /// ```swift
        /// let bold = Style.Attributes(rawValue: 1)
        /// ```
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        /// Bold (SGR 1).
        public static let bold = Attributes(rawValue: 1 << 0)
        /// Dim (SGR 2).
        public static let dim = Attributes(rawValue: 1 << 1)
        /// Underline (SGR 4).
        public static let underline = Attributes(rawValue: 1 << 2)
        /// Reverse video (SGR 7): the highlighted row and focused buttons.
        public static let reverse = Attributes(rawValue: 1 << 3)
    }

    /// Returns this style with the given attributes added.
    ///
    /// ```swift
    /// let highlighted = Style.plain.adding(.reverse)
    /// ```
    public func adding(_ extra: Attributes) -> Style {
        var copy = self
        copy.attributes.formUnion(extra)
        return copy
    }
}

/// One of the sixteen ANSI colours.
///
/// ```swift
/// let style = Style(foreground: .red)
/// ```
public enum Color: UInt8, Hashable, Sendable {
    /// One of the eight normal colours (SGR 30–37 and 40–47).
    case black = 0, red, green, yellow, blue, magenta, cyan, white
    /// One of the eight bright colours (SGR 90–97 and 100–107).
    case brightBlack, brightRed, brightGreen, brightYellow, brightBlue, brightMagenta, brightCyan, brightWhite
}
