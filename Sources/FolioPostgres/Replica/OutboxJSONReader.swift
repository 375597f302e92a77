import FolioStore
import Foundation

/// Reads an outbox entry's JSON (see ``OutboxEntry/encoded()``): a parse
/// into a small tree, then the entry from the tree. Anything malformed
/// throws; nothing traps.
enum OutboxJSON {
    case null
    case bool(Bool)
    /// A number as written: the entry's fields say whether it is an integer or a double.
    case number(String)
    case string(String)
    case array([OutboxJSON])
    case object([String: OutboxJSON])

    static func parse(_ text: String) throws -> OutboxJSON {
        var utf8 = Array(text.utf8)
        return try utf8.withUnsafeMutableBufferPointer { buffer in
            var reader = Reader(bytes: UnsafeBufferPointer(buffer))
            let value = try reader.value(depth: 0)
            reader.skipSpace()
            guard reader.at == buffer.count else { throw reader.failure("text after the value") }
            return value
        }
    }

    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var at = 0

        func failure(_ what: String) -> DecodingError {
            DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "outbox entry: \(what) at byte \(at)"))
        }

        mutating func skipSpace() {
            while at < bytes.count, [0x20, 0x09, 0x0a, 0x0d].contains(bytes[at]) { at += 1 }
        }

        mutating func expect(_ byte: UInt8) throws {
            skipSpace()
            guard at < bytes.count, bytes[at] == byte else { throw failure("expected '\(Character(Unicode.Scalar(byte)))'") }
            at += 1
        }

        /// Whether the next byte (after space) is `byte`, taking it if so.
        mutating func take(_ byte: UInt8) -> Bool {
            skipSpace()
            guard at < bytes.count, bytes[at] == byte else { return false }
            at += 1
            return true
        }

        mutating func literal(_ word: String, _ value: OutboxJSON) throws -> OutboxJSON {
            for b in word.utf8 {
                guard at < bytes.count, bytes[at] == b else { throw failure("expected \(word)") }
                at += 1
            }
            return value
        }

        mutating func value(depth: Int) throws -> OutboxJSON {
            guard depth < 64 else { throw failure("nesting too deep") }
            skipSpace()
            guard at < bytes.count else { throw failure("unexpected end") }
            switch bytes[at] {
            case UInt8(ascii: "{"):
                at += 1
                var members: [String: OutboxJSON] = [:]
                if take(UInt8(ascii: "}")) { return .object(members) }
                repeat {
                    try expect(UInt8(ascii: "\""))
                    let key = try string()
                    try expect(UInt8(ascii: ":"))
                    members[key] = try value(depth: depth + 1)
                } while take(UInt8(ascii: ","))
                try expect(UInt8(ascii: "}"))
                return .object(members)
            case UInt8(ascii: "["):
                at += 1
                var elements: [OutboxJSON] = []
                if take(UInt8(ascii: "]")) { return .array(elements) }
                repeat { elements.append(try value(depth: depth + 1)) } while take(UInt8(ascii: ","))
                try expect(UInt8(ascii: "]"))
                return .array(elements)
            case UInt8(ascii: "\""):
                at += 1
                return .string(try string())
            case UInt8(ascii: "n"): return try literal("null", .null)
            case UInt8(ascii: "t"): return try literal("true", .bool(true))
            case UInt8(ascii: "f"): return try literal("false", .bool(false))
            default:
                let start = at
                while at < bytes.count, Self.numberBytes.contains(bytes[at]) { at += 1 }
                guard at > start else { throw failure("unexpected byte") }
                return .number(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<at]), as: UTF8.self))
            }
        }

        private static let numberBytes = Set("0123456789+-.eE".utf8)

        /// The rest of a string whose opening quote was taken.
        mutating func string() throws -> String {
            let start = at
            while at < bytes.count, bytes[at] != UInt8(ascii: "\""), bytes[at] != UInt8(ascii: "\\") { at += 1 }
            guard at < bytes.count else { throw failure("unterminated string") }
            if bytes[at] == UInt8(ascii: "\"") {
                at += 1
                return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<at - 1]), as: UTF8.self)
            }
            // Escapes: byte by byte from here.
            var out = Array(bytes[start..<at])
            while true {
                guard at < bytes.count else { throw failure("unterminated string") }
                let b = bytes[at]
                at += 1
                if b == UInt8(ascii: "\"") { break }
                guard b == UInt8(ascii: "\\") else {
                    out.append(b)
                    continue
                }
                guard at < bytes.count else { throw failure("unterminated escape") }
                let e = bytes[at]
                at += 1
                switch e {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0c)
                case UInt8(ascii: "n"): out.append(0x0a)
                case UInt8(ascii: "r"): out.append(0x0d)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800..<0xDC00).contains(scalar) {
                        // A surrogate pair: the low half follows as another escape.
                        try expectRaw("\\u")
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw failure("unpaired surrogate") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let s = Unicode.Scalar(scalar) else { throw failure("invalid \\u escape") }
                    out += String(Character(s)).utf8
                default: throw failure("invalid escape")
                }
            }
            return String(decoding: out, as: UTF8.self)
        }

        private mutating func expectRaw(_ text: String) throws {
            for b in text.utf8 {
                guard at < bytes.count, bytes[at] == b else { throw failure("expected \(text)") }
                at += 1
            }
        }

        private mutating func hex4() throws -> UInt32 {
            guard at + 4 <= bytes.count else { throw failure("short \\u escape") }
            var n: UInt32 = 0
            for _ in 0..<4 {
                let b = bytes[at]
                at += 1
                let digit: UInt8
                switch b {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = b - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = b - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = b - UInt8(ascii: "A") + 10
                default: throw failure("invalid \\u escape")
                }
                n = n << 4 | UInt32(digit)
            }
            return n
        }
    }
}
