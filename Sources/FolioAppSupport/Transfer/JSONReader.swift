/// Reads JSON text (RFC 8259) into ``JSONValue``s, keeping the line each
/// object starts on so that an import names the line of a bad row. Objects
/// keep their keys in order; a key given twice is refused.
///
/// ```swift
/// var reader = JSONReader(Array(#"[{"name":"","rows":[{"id":"1","name":"Mars"}]}]"#.utf8))
/// let value = try reader.document()
/// ```
package struct JSONReader {
    /// Malformed JSON: the line and what is wrong.
    package struct Problem: Error {
        /// The line (1 first).
        package let line: Int
        /// What is wrong.
        package let reason: String
    }

    private let bytes: [UInt8]
    private var index = 0
    /// The line the reader is on.
    package private(set) var line = 1
    /// The line each object at ``recordDepth`` began on, in order.
    package private(set) var objectLines: [Int] = []
    /// The depth of the objects whose lines are kept (3: a row in `[{"rows":[{…}]}]`).
    package var recordDepth = 3
    /// Nesting deeper than this is refused rather than risking the stack.
    private static let maximumDepth = 64

    /// A reader over UTF-8 `bytes` (a byte order mark is skipped).
    package init(_ bytes: [UInt8]) {
        self.bytes = bytes
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
    }

    /// The one value of the text, with nothing but white space after it.
    package mutating func document() throws(Problem) -> JSONValue {
        let value = try self.value(depth: 0)
        skipSpace()
        guard index == bytes.count else { throw problem("text after the JSON value") }
        return value
    }

    /// The next value, `depth` deep in the document.
    mutating func value(depth: Int) throws(Problem) -> JSONValue {
        skipSpace()
        guard depth < Self.maximumDepth else { throw problem("nested more than \(Self.maximumDepth) deep") }
        guard index < bytes.count else { throw problem("the text ends where a value was expected") }
        switch bytes[index] {
        case UInt8(ascii: "{"):
            let start = line
            index += 1
            var pairs: [(String, JSONValue)] = []
            var keys = Set<String>()
            skipSpace()
            if peek(UInt8(ascii: "}")) { index += 1; if depth == recordDepth { objectLines.append(start) }; return .object(pairs) }
            while true {
                skipSpace()
                guard peek(UInt8(ascii: "\"")) else { throw problem("expected a key in quotes") }
                let key = try string()
                guard keys.insert(key).inserted else { throw problem("the key \"\(key)\" is given twice") }
                skipSpace()
                guard peek(UInt8(ascii: ":")) else { throw problem("expected ':' after a key") }
                index += 1
                pairs.append((key, try value(depth: depth + 1)))
                skipSpace()
                if peek(UInt8(ascii: ",")) { index += 1; continue }
                guard peek(UInt8(ascii: "}")) else { throw problem("expected ',' or '}' in an object") }
                index += 1
                if depth == recordDepth { objectLines.append(start) }
                return .object(pairs)
            }
        case UInt8(ascii: "["):
            index += 1
            var items: [JSONValue] = []
            skipSpace()
            if peek(UInt8(ascii: "]")) { index += 1; return .array(items) }
            while true {
                items.append(try value(depth: depth + 1))
                skipSpace()
                if peek(UInt8(ascii: ",")) { index += 1; continue }
                guard peek(UInt8(ascii: "]")) else { throw problem("expected ',' or ']' in an array") }
                index += 1
                return .array(items)
            }
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try word("true"); return .bool(true)
        case UInt8(ascii: "f"): try word("false"); return .bool(false)
        case UInt8(ascii: "n"): try word("null"); return .null
        default: return try number()
        }
    }

    private func problem(_ reason: String) -> Problem { Problem(line: line, reason: reason) }

    private func peek(_ byte: UInt8) -> Bool { index < bytes.count && bytes[index] == byte }

    private mutating func skipSpace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x0A: line += 1; index += 1
            case 0x20, 0x09, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func word(_ text: StaticString) throws(Problem) {
        let count = text.utf8CodeUnitCount
        guard index + count <= bytes.count, (0..<count).allSatisfy({ bytes[index + $0] == text.utf8Start[$0] }) else {
            throw problem("not a JSON value")
        }
        index += count
    }

    private mutating func number() throws(Problem) -> JSONValue {
        let start = index
        func digits() -> Int {
            let from = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            return index - from
        }
        if peek(UInt8(ascii: "-")) { index += 1 }
        let whole = digits()
        guard whole > 0, !(whole > 1 && bytes[index - whole] == UInt8(ascii: "0")) else { throw problem("not a JSON value") }
        var integral = true
        if peek(UInt8(ascii: ".")) {
            index += 1
            integral = false
            guard digits() > 0 else { throw problem("a number needs digits after '.'") }
        }
        if peek(UInt8(ascii: "e")) || peek(UInt8(ascii: "E")) {
            index += 1
            integral = false
            if peek(UInt8(ascii: "+")) || peek(UInt8(ascii: "-")) { index += 1 }
            guard digits() > 0 else { throw problem("a number needs digits in its exponent") }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if integral, let value = Int64(text) { return .integer(value) }
        guard let value = Double(text), value.isFinite else { throw problem("the number \(text) is out of range") }
        return .number(value)
    }

    private mutating func string() throws(Problem) -> String {
        index += 1  // the opening quote
        let start = index
        // The common case, no escapes: one slice.
        while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\"), bytes[index] >= 0x20 {
            index += 1
        }
        if peek(UInt8(ascii: "\"")) {
            defer { index += 1 }
            return try utf8(bytes[start..<index])
        }
        var out = Array(bytes[start..<index])
        while true {
            guard index < bytes.count else { throw problem("a string is not closed") }
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""): return try utf8(out[...])
            case UInt8(ascii: "\\"):
                guard index < bytes.count else { throw problem("a string is not closed") }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(escape)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800..<0xDC00).contains(scalar) {
                        // A surrogate pair: the low half must follow as \uXXXX.
                        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                            throw problem("a \\u escape is half of a surrogate pair")
                        }
                        index += 2
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw problem("a \\u escape is half of a surrogate pair") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let unicode = Unicode.Scalar(scalar) else { throw problem("a \\u escape is half of a surrogate pair") }
                    out.append(contentsOf: Array(String(Character(unicode)).utf8))
                default: throw problem("an unknown escape in a string")
                }
            case 0x00..<0x20: throw problem("a control character inside a string (write it as \\u escape)")
            default: out.append(byte)
            }
        }
    }

    private mutating func hex4() throws(Problem) -> UInt32 {
        guard index + 4 <= bytes.count, let value = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16) else {
            throw problem("a \\u escape needs four hex digits")
        }
        index += 4
        return value
    }

    private func utf8(_ slice: ArraySlice<UInt8>) throws(Problem) -> String {
        guard let text = String(validating: slice, as: UTF8.self) else { throw problem("the text is not UTF-8") }
        return text
    }
}
