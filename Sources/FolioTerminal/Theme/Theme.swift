/// The styles the kit draws with. Colour only decorates: every state also has
/// reverse video or a text marker, so `NO_COLOR` loses nothing.
///
/// ```swift
/// Theme.standard.highlighted // reverse video
/// ```
public struct Theme: Sendable {
    /// Navigation bar title.
    public var title = Style(attributes: .bold)
    /// Bar buttons and back button.
    public var barButton = Style(foreground: .cyan)
    /// Lines separating bars from content.
    public var separator = Style(attributes: .dim)
    /// Section headers.
    public var header = Style(foreground: .brightBlack, attributes: .bold)
    /// Secondary text: subtitles, details, placeholders.
    public var secondary = Style(attributes: .dim)
    /// The highlighted row and focused buttons.
    public var highlighted = Style(attributes: .reverse)
    /// Destructive actions and buttons.
    public var destructive = Style(foreground: .red, attributes: .bold)
    /// The key-hint bar.
    public var hintBar = Style(attributes: .dim)
    /// Marker at the start of the highlighted row and focused button.
    public var highlightMarker = "▸"
    /// Marker before a destructive action's title.
    public var destructiveMarker = "✕"

    /// The default theme.
    ///
    /// ```swift
    /// let theme = Theme.standard
    /// ```
    public static let standard = Theme()
}
