/// A JSON value as ``JSONReader`` reads it: objects keep their keys in the
/// order written, and a number keeps its text, so the reader decides
/// nothing about its type. What reads it asks for the type it wants: an
/// exact `Int64`, the bits of a `UInt64`, or a `Double`.
///
/// ```swift
/// var reader = JSONReader(Array(#"{"i": 9007199254740993}"#.utf8))
/// let node = try reader.document()
/// node["i"]?.number?.int64   // 9007199254740993, not rounded to a double
/// ```
package enum JSONNode: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONNode])
    /// Members in the order written; no key twice (the reader refuses that).
    case object([(key: String, value: JSONNode)])

    /// The value of `key` when this is an object holding it.
    package subscript(_ key: String) -> JSONNode? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The number, when this is one.
    package var number: JSONNumber? {
        if case .number(let n) = self { return n }
        return nil
    }

    /// The text, when this is a string.
    package var string: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    package static func == (lhs: JSONNode, rhs: JSONNode) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.number(let a), .number(let b)): a == b
        case (.string(let a), .string(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)): a.elementsEqual(b) { $0.key == $1.key && $0.value == $1.value }
        default: false
        }
    }
}

/// A JSON number as written (valid by RFC 8259's grammar), converted on
/// demand: equal when the texts are equal.
///
/// ```swift
/// JSONNumber(text: "42", isIntegral: true).int64   // 42
/// JSONNumber(text: "4.5e1", isIntegral: false).double   // 45.0
/// ```
package struct JSONNumber: Hashable, Sendable {
    /// The number as written.
    package let text: String
    /// Written without a fraction or an exponent.
    package let isIntegral: Bool

    package init(text: String, isIntegral: Bool) {
        self.text = text
        self.isIntegral = isIntegral
    }

    /// The exact value when it is written as a whole number within `Int64`'s range.
    package var int64: Int64? { isIntegral ? Int64(text) : nil }

    /// The exact value when it is written as a whole number within `UInt64`'s range.
    package var uint64: UInt64? { isIntegral ? UInt64(text) : nil }

    /// The nearest double; nil when the number is beyond a double's range.
    package var double: Double? {
        guard let value = Double(text), value.isFinite else { return nil }
        return value
    }
}
