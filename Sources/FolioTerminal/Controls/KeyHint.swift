/// A key and what it does on the current screen, for the hint bar and the
/// `?` help overlay.
///
/// ```swift
/// KeyHint("e", "edit")
/// KeyHint("←", "swipe: reveal actions", inBar: false)
/// ```
public struct KeyHint: Hashable, Sendable {
    /// The keys, as shown ("↑↓/jk", "Enter").
    public var keys: String
    /// What they do.
    public var action: String
    /// Whether the one-line hint bar shows it (help always does).
    public var inBar: Bool

    /// Creates a hint.
    ///
    /// ```swift
    /// let hint = KeyHint("+", "add")
    /// ```
    public init(_ keys: String, _ action: String, inBar: Bool = true) {
        self.keys = keys
        self.action = action
        self.inBar = inBar
    }
}
