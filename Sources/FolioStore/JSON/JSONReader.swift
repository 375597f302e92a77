/// Reads JSON text (RFC 8259, UTF-8) strictly: a whole document into
/// ``JSONNode``s, or piece by piece (``beginArray()``, ``key()``,
/// ``value(depth:)``…) so a long array's elements need no tree of their
/// own. Numbers keep their text (``JSONNumber``); the reader counts lines,
/// so what reads a file can name the line of a bad value. A key given
/// twice in one object, nesting past ``maximumDepth`` and text that is not
/// UTF-8 are refused; nothing traps.
///
/// ```swift
/// var reader = JSONReader(Array(#"[{"name": "Mars"}]"#.utf8))
/// let node = try reader.document()   // .array([.object([("name", .string("Mars"))])])
/// ```
package struct JSONReader {
    /// Malformed JSON: the line and what is wrong.
    package struct Problem: Error, CustomStringConvertible {
        /// The line (1 first).
        package let line: Int
        /// What is wrong.
        package let reason: String

        package var description: String { "line \(line): \(reason)" }
    }

    /// What the next value is, from its first byte.
    package enum Kind: Sendable {
        case object, array, string, other
    }

    let bytes: [UInt8]
    var index = 0
    /// The line the reader is on (1 first).
    package private(set) var line = 1
    /// Nesting deeper than this is refused rather than risking the stack.
    package static let maximumDepth = 64

    /// A reader over UTF-8 `bytes` (a byte order mark is skipped).
    package init(_ bytes: [UInt8]) {
        self.bytes = bytes
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
    }

    /// The one value of the text, with nothing but white space after it.
    package mutating func document() throws(Problem) -> JSONNode {
        let value = try self.value(depth: 0)
        try end()
        return value
    }

    /// Refuses anything but white space from here to the end.
    package mutating func end() throws(Problem) {
        skipSpace()
        guard index == bytes.count else { throw problem("text after the JSON value") }
    }

    /// What the next value is (after white space); nil at the end of the text.
    package mutating func next() -> Kind? {
        skipSpace()
        guard index < bytes.count else { return nil }
        switch bytes[index] {
        case UInt8(ascii: "{"): return .object
        case UInt8(ascii: "["): return .array
        case UInt8(ascii: "\""): return .string
        default: return .other
        }
    }

    /// Takes an array's `[`; false when the array is empty (its `]` taken too).
    package mutating func beginArray() throws(Problem) -> Bool {
        try take(UInt8(ascii: "["), "expected '['")
        if take(UInt8(ascii: "]")) { return false }
        return true
    }

    /// After an element: takes `,` (true: another element follows) or `]` (false).
    package mutating func nextElement() throws(Problem) -> Bool {
        if take(UInt8(ascii: ",")) { return true }
        try take(UInt8(ascii: "]"), "expected ',' or ']' in an array")
        return false
    }

    /// Takes an object's `{`; false when the object is empty (its `}` taken too).
    package mutating func beginObject() throws(Problem) -> Bool {
        try take(UInt8(ascii: "{"), "expected '{'")
        if take(UInt8(ascii: "}")) { return false }
        return true
    }

    /// After a member's value: takes `,` (true: another member follows) or `}` (false).
    package mutating func nextMember() throws(Problem) -> Bool {
        if take(UInt8(ascii: ",")) { return true }
        try take(UInt8(ascii: "}"), "expected ',' or '}' in an object")
        return false
    }

    /// A member's key and the `:` after it; its value is read next.
    package mutating func key() throws(Problem) -> String {
        guard next() == .string else { throw problem("expected a key in quotes") }
        let key = try string()
        try take(UInt8(ascii: ":"), "expected ':' after a key")
        return key
    }

    /// The next value, `depth` deep in the document (deeper than
    /// ``maximumDepth`` is refused).
    package mutating func value(depth: Int) throws(Problem) -> JSONNode {
        guard depth < Self.maximumDepth else { throw problem("nested more than \(Self.maximumDepth) deep") }
        guard let kind = next() else { throw problem("the text ends where a value was expected") }
        switch kind {
        case .object:
            var members: [(key: String, value: JSONNode)] = []
            guard try beginObject() else { return .object(members) }
            var keys: Set<String> = []
            repeat {
                let key = try self.key()
                // A few keys are compared in place; a set only for big objects.
                if members.count < 16 {
                    if members.contains(where: { $0.key == key }) { throw problem("the key \"\(key)\" is given twice") }
                } else {
                    if keys.isEmpty { keys = Set(members.map(\.key)) }
                    guard keys.insert(key).inserted else { throw problem("the key \"\(key)\" is given twice") }
                }
                members.append((key, try value(depth: depth + 1)))
            } while try nextMember()
            return .object(members)
        case .array:
            var items: [JSONNode] = []
            guard try beginArray() else { return .array(items) }
            repeat { items.append(try value(depth: depth + 1)) } while try nextElement()
            return .array(items)
        case .string:
            return .string(try string())
        case .other:
            switch bytes[index] {
            case UInt8(ascii: "t"): try word("true"); return .bool(true)
            case UInt8(ascii: "f"): try word("false"); return .bool(false)
            case UInt8(ascii: "n"): try word("null"); return .null
            default: return .number(try number())
            }
        }
    }

    func problem(_ reason: String) -> Problem { Problem(line: line, reason: reason) }

    /// Takes `byte` after white space when it is next.
    private mutating func take(_ byte: UInt8) -> Bool {
        skipSpace()
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    private mutating func take(_ byte: UInt8, _ reason: @autoclosure () -> String) throws(Problem) {
        guard take(byte) else { throw problem(index < bytes.count ? reason() : "the text ends early: \(reason())") }
    }

    mutating func skipSpace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x0A: line += 1
            case 0x20, 0x09, 0x0D: break
            default: return
            }
            index += 1
        }
    }

    private mutating func word(_ text: StaticString) throws(Problem) {
        let count = text.utf8CodeUnitCount
        guard index + count <= bytes.count, (0..<count).allSatisfy({ bytes[index + $0] == text.utf8Start[$0] }) else {
            throw problem("not a JSON value")
        }
        index += count
    }

    /// A number by RFC 8259's grammar, kept as written.
    private mutating func number() throws(Problem) -> JSONNumber {
        let start = index
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        let whole = digits()
        guard whole > 0 else { throw problem("not a JSON value") }
        guard whole == 1 || bytes[index - whole] != UInt8(ascii: "0") else { throw problem("a number has a leading zero") }
        var integral = true
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            integral = false
            guard digits() > 0 else { throw problem("a number needs digits after '.'") }
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            integral = false
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw problem("a number needs digits in its exponent") }
        }
        // ASCII only: no repair can happen, and up to 15 bytes it is stored inline.
        let text = bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[start..<index]), as: UTF8.self) }
        return JSONNumber(text: text, isIntegral: integral)
    }

    private mutating func digits() -> Int {
        let from = index
        while index < bytes.count, bytes[index] &- UInt8(ascii: "0") < 10 { index += 1 }
        return index - from
    }
}
