/// A section's identity in change reports and snapshots: its section key's
/// value, as text, with a nil key kept apart from an empty one. Two sections
/// of one result set never share an identifier, though both a nil key and an
/// empty string are *named* "" (Core Data's section name); `name` is for
/// display, the identifier for diffing.
///
/// ```swift
/// let empty = SectionIdentifier("")
/// let none = SectionIdentifier.nilKey
/// empty == none            // false
/// empty.name == none.name  // true: both show as ""
/// ```
public struct SectionIdentifier: Hashable, Sendable, CustomStringConvertible {
    /// The section's name: the key's value as text ("" for a nil key).
    public let name: String
    /// Whether the section key is nil.
    public let isNilKey: Bool

    /// The identifier of a section whose key reads as `name`.
    ///
    /// ```swift
    /// SectionIdentifier("Primates")
    /// ```
    public init(_ name: String) {
        self.name = name
        isNilKey = false
    }

    /// The identifier of the section of objects whose key is nil.
    ///
    /// ```swift
    /// if section.identifier == .nilKey { print("(none)") }
    /// ```
    public static let nilKey = SectionIdentifier(nilKey: ())

    private init(nilKey: Void) {
        name = ""
        isNilKey = true
    }

    /// Equal names are equal UTF-8 bytes, as the store orders and groups keys
    /// (Swift's `==` on strings would make "\u{E9}" and "e\u{301}" one section).
    ///
    /// ```swift
    /// SectionIdentifier("\u{E9}") == SectionIdentifier("e\u{301}")   // false
    /// ```
    public static func == (a: SectionIdentifier, b: SectionIdentifier) -> Bool {
        a.isNilKey == b.isNilKey && a.name.utf8.elementsEqual(b.name.utf8)
    }

    /// Hashes the name's UTF-8 bytes, to agree with ``==(_:_:)``.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(isNilKey)
        var name = name
        name.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }

    /// The name, or `nil` for the nil key: `Primates`, `nil`.
    ///
    /// ```swift
    /// "\(SectionIdentifier.nilKey)"   // "nil"
    /// ```
    public var description: String { isNilKey ? "nil" : name }
}
