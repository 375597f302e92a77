import Foundation

/// How a ``StringFilter`` compares an attribute's text with its string.
///
///     StringMatch.contains("monkey")
public enum StringMatch: Sendable, Hashable {
    /// The whole text equals the string.
    case equals(String)
    /// The text contains the string (an empty string matches every text).
    case contains(String)
    /// The text starts with the string.
    case beginsWith(String)
    /// The text ends with the string.
    case endsWith(String)

    /// The string compared with.
    var string: String {
        switch self {
        case .equals(let s), .contains(let s), .beginsWith(let s), .endsWith(let s): s
        }
    }
}

/// A string condition that `#Predicate` on Linux cannot express: equality,
/// contains, prefix and suffix on String attributes (possibly through to-one
/// relationships), optionally case-, diacritic- and width-insensitive as
/// Core Data's `CONTAINS[cd]`, and on several attributes at once (any of
/// them matching). Filters are ANDed with the request's predicate; the
/// store folds text the same way in SQL and for unsaved objects,
/// so pending changes match as saved ones do.
///
/// A search field over two attributes:
///
///     request.stringFilters = [StringFilter(anyOf: [\Animal.commonName, \Animal.habitat], .contains("cafe"),
///                                           options: [.caseInsensitive, .diacriticInsensitive])]
///     // matches "Café Exhibit", "CAFE", "Cafè"
///
/// Text that is nil (an optional attribute, or a missing to-one) never matches.
/// - Complexity: a scan of the entity's rows in SQL (no index helps a folded `contains`).
public struct StringFilter<Entity: ManagedObject>: CustomStringConvertible {
    /// How the text is matched (kept as `StringFilter.Match` for existing callers).
    public typealias Match = StringMatch

    let keyPaths: [PartialKeyPath<Entity>]
    let match: StringMatch
    let options: String.CompareOptions

    /// A condition on one String attribute. `options` may hold
    /// `.caseInsensitive`, `.diacriticInsensitive` and `.widthInsensitive`.
    ///
    ///     StringFilter(\Animal.habitat, .endsWith("forest"), options: .caseInsensitive)
    public init<V>(_ keyPath: KeyPath<Entity, V>, _ match: StringMatch, options: String.CompareOptions = []) {
        self.init(anyOf: [keyPath], match, options: options)
    }

    /// A condition met when any of the String attributes matches.
    ///
    ///     StringFilter(anyOf: [\Location.locationDescription, \Location.address], .contains(text),
    ///                  options: [.caseInsensitive, .diacriticInsensitive])
    public init(anyOf keyPaths: [PartialKeyPath<Entity>], _ match: StringMatch, options: String.CompareOptions = []) {
        precondition(!keyPaths.isEmpty, "StringFilter(anyOf:): give at least one key path")
        precondition(
            TextFolding.supported.isSuperset(of: options),
            "StringFilter: only .caseInsensitive, .diacriticInsensitive and .widthInsensitive are supported, not \(options.rawValue)")
        self.keyPaths = keyPaths
        self.match = match
        self.options = options
    }

    /// The match, its options and key paths, for messages and cache keys.
    ///
    ///     print(filter)   // contains("cafe") [1, 128] in [\Animal.commonName, \Animal.habitat]
    public var description: String { "\(match) [\(options.rawValue)] in \(keyPaths)" }

    /// The needle as stored text is folded.
    var foldedNeedle: String { TextFolding.fold(match.string, options) }

    /// The same test in memory, on one attribute's text (nil never matches).
    func matches(_ text: String?) -> Bool {
        guard let text else { return false }
        return TextFolding.matches(TextFolding.fold(text, options), match, needle: foldedNeedle)
    }
}
