// Strings: a run without escapes becomes a String in one step (ASCII
// without a second validating pass); escapes are decoded byte by byte.
extension JSONReader {
    /// The string at the reader (its opening quote next), unescaped.
    mutating func string() throws(Problem) -> String {
        index += 1  // the opening quote
        let start = index
        var high: UInt8 = 0
        let stop = bytes.withUnsafeBufferPointer { buffer in
            var i = start
            while i < buffer.count {
                let byte = buffer[i]
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { break }
                high |= byte
                i += 1
            }
            return i
        }
        index = stop
        if index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
            index += 1
            return try text(start..<stop, ascii: high < 0x80)
        }
        var out = Array(bytes[start..<stop])
        while true {
            guard index < bytes.count else { throw problem("a string is not closed") }
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                guard let text = String(validating: out, as: UTF8.self) else { throw problem("the text is not UTF-8") }
                return text
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
                case UInt8(ascii: "u"): out.append(contentsOf: try escapedScalar().utf8)
                default: throw problem("an unknown escape in a string")
                }
            case 0x00..<0x20: throw problem("a control character inside a string (write it as \\u escape)")
            default: out.append(byte)
            }
        }
    }

    /// A member's key and the `:` after it, as the index of the one of
    /// `names` (UTF-8) it is, or the key itself when it is none of them. A
    /// key without escapes is compared as bytes: no string is made for it.
    package mutating func key(in names: [[UInt8]]) throws(Problem) -> Result<Int, Unknown> {
        guard next() == .string else { throw problem("expected a key in quotes") }
        let start = index + 1
        var end = start
        while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\"), bytes[end] >= 0x20 { end += 1 }
        let found: Result<Int, Unknown>
        if end < bytes.count, bytes[end] == UInt8(ascii: "\"") {
            let match = names.firstIndex { name in name.count == end - start && name.indices.allSatisfy { name[$0] == bytes[start + $0] } }
            if let match {
                index = end + 1
                found = .success(match)
            } else {
                found = .failure(Unknown(key: try string()))
            }
        } else {
            let key = try string()
            found = names.firstIndex { $0.elementsEqual(key.utf8) }.map { .success($0) } ?? .failure(Unknown(key: key))
        }
        guard next() == .other, bytes[index] == UInt8(ascii: ":") else { throw problem("expected ':' after a key") }
        index += 1
        return found
    }

    /// A key that is none of the names asked for.
    package struct Unknown: Error {
        package let key: String
    }

    /// The bytes of a string without escapes as text.
    private func text(_ range: Range<Int>, ascii: Bool) throws(Problem) -> String {
        let text = bytes.withUnsafeBufferPointer { buffer in
            let slice = UnsafeBufferPointer(rebasing: buffer[range])
            // ASCII is valid UTF-8: decoding it repairs nothing.
            return ascii ? String(decoding: slice, as: UTF8.self) : String(validating: slice, as: UTF8.self)
        }
        guard let text else { throw problem("the text is not UTF-8") }
        return text
    }

    /// The character of a `\uXXXX` escape (its `\u` taken), a surrogate
    /// pair's second half read too.
    private mutating func escapedScalar() throws(Problem) -> String {
        var scalar = try hex4()
        if (0xD800..<0xDC00).contains(scalar) {
            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                throw problem("a \\u escape is half of a surrogate pair")
            }
            index += 2
            let low = try hex4()
            guard (0xDC00..<0xE000).contains(low) else { throw problem("a \\u escape is half of a surrogate pair") }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        }
        guard let unicode = Unicode.Scalar(scalar) else { throw problem("a \\u escape is half of a surrogate pair") }
        return String(Character(unicode))
    }

    private mutating func hex4() throws(Problem) -> UInt32 {
        guard index + 4 <= bytes.count else { throw problem("a \\u escape needs four hex digits") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw problem("a \\u escape needs four hex digits")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }
}
