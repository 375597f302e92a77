/// A string condition on an attribute that `#Predicate` on Linux cannot
/// express: case-insensitive (ASCII) equality, contains, prefix, suffix.
///
///     request.stringFilters = [.init(\.commonName, .contains("monkey"), caseInsensitive: true)]
public struct StringFilter<Entity: ManagedObject> {
    /// How the attribute's text is matched.
    public enum Match: Sendable {
        case equals(String), contains(String), beginsWith(String), endsWith(String)
    }
    let keyPath: PartialKeyPath<Entity>
    let match: Match
    let caseInsensitive: Bool

    /// A condition on a String attribute (possibly through to-one relationships).
    ///
    ///     StringFilter(\Animal.habitat, .endsWith("Forest"), caseInsensitive: true)
    public init<V>(_ keyPath: KeyPath<Entity, V>, _ match: Match, caseInsensitive: Bool = false) {
        self.keyPath = keyPath
        self.match = match
        self.caseInsensitive = caseInsensitive
    }

    /// The same test in memory, for unsaved objects.
    func matches(_ text: String) -> Bool {
        let t = caseInsensitive ? asciiLowercased(text) : text
        func n(_ s: String) -> String { caseInsensitive ? asciiLowercased(s) : s }
        switch match {
        case .equals(let s): return t == n(s)
        case .contains(let s): return s.isEmpty || t.contains(n(s))
        case .beginsWith(let s): return t.hasPrefix(n(s))
        case .endsWith(let s): return t.hasSuffix(n(s))
        }
    }
}

/// Lowercases A–Z only, as SQLite's `lower()` does.
func asciiLowercased(_ s: String) -> String {
    String(decoding: s.utf8.map { (65...90).contains($0) ? $0 + 32 : $0 }, as: UTF8.self)
}
