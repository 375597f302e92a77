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

extension KeyHint {
    /// The keys a hint names: its `keys` split at "/" and spaces
    /// ("↑↓/jk" is "↑↓" and "jk"; "Home/End g/G" four keys).
    var keyNames: [String] {
        keys.split(whereSeparator: { $0 == "/" || $0 == " " }).map(String.init)
    }

    /// Hints innermost first, dropping every later hint that names a key an
    /// earlier one already has: the inner screen uses that key first.
    ///
    /// - Complexity: O(n) in the keys named.
    static func innermostFirst(_ hints: [KeyHint]) -> [KeyHint] {
        var claimed: Set<String> = []
        var kept: [KeyHint] = []
        for hint in hints {
            let names = hint.keyNames
            guard names.allSatisfy({ !claimed.contains($0) }) else { continue }
            claimed.formUnion(names)
            kept.append(hint)
        }
        return kept
    }
}
