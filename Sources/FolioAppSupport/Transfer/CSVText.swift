/// Comma-separated values as RFC 4180 has them: records end at CRLF or LF,
/// a field holding a comma, a quote or a line break is quoted, and a quote
/// inside is doubled. Reading keeps the line each record starts on, so an
/// import's error names it.
///
/// ```swift
/// CSVText.line(["a,b", "say \"hi\""])   // "\"a,b\",\"say \"\"hi\"\"\""
/// let records = try CSVText.records(Array("name\nMars\n".utf8))   // [(1, ["name"]), (2, ["Mars"])]
/// ```
package enum CSVText {
    /// One record's fields, quoted where needed, without the line break.
    package static func line(_ fields: [String]) -> String {
        // A lone empty field is quoted: an empty line is no record.
        fields == [""] ? "\"\"" : fields.map(quoted).joined(separator: ",")
    }

    /// `field` as it goes in a record: as it is, or quoted with inner quotes doubled.
    package static func quoted(_ field: String) -> String {
        let needs =
            field.utf8.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0A || $0 == 0x0D }
            || field.first?.isWhitespace == true || field.last?.isWhitespace == true
        guard needs else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// A malformed record: where, and what is wrong.
    package struct Problem: Error {
        /// The line the problem is on (1 first).
        package let line: Int
        /// What is wrong.
        package let reason: String
    }

    /// Every record of `bytes` (UTF-8) with the line it starts on. A blank
    /// line at the end is not a record; a byte order mark is skipped.
    ///
    /// - Complexity: O(n) in the bytes.
    package static func records(_ bytes: [UInt8]) throws(Problem) -> [(line: Int, fields: [String])] {
        var reader = Reader(bytes)
        var result: [(line: Int, fields: [String])] = []
        var fields: [String] = []
        while let line = try reader.next(into: &fields) { result.append((line, fields)) }
        return result
    }

    /// Reads records one at a time, into one array of fields reused for each.
    ///
    /// ```swift
    /// var reader = CSVText.Reader(Array("name\nMars\n".utf8))
    /// var fields: [String] = []
    /// while let line = try reader.next(into: &fields) { print(line, fields) }
    /// ```
    package struct Reader {
        private let bytes: [UInt8]
        private var index: Int
        private var line = 1

        package init(_ bytes: [UInt8]) {
            self.bytes = bytes
            index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        }

        /// The next record's fields, in `fields` (emptied first), and the
        /// line it starts on; nil after the last.
        package mutating func next(into fields: inout [String]) throws(Problem) -> Int? {
            let quote = UInt8(ascii: "\""), comma = UInt8(ascii: ","), lf: UInt8 = 0x0A, cr: UInt8 = 0x0D
            while index < bytes.count {
                let start = line
                fields.removeAll(keepingCapacity: true)
                var atEnd = false
                var quotedAny = false
                while !atEnd {
                    if index < bytes.count, bytes[index] == quote {
                        // A quoted field: up to the quote not doubled, which must end the field.
                        index += 1
                        quotedAny = true
                        var field: [UInt8] = []
                        while true {
                            guard index < bytes.count else { throw Problem(line: start, reason: "a quoted field is not closed") }
                            let byte = bytes[index]
                            if byte == quote {
                                if index + 1 < bytes.count, bytes[index + 1] == quote { field.append(quote); index += 2; continue }
                                index += 1
                                break
                            }
                            if byte == lf { line += 1 }
                            field.append(byte)
                            index += 1
                        }
                        fields.append(try field.withUnsafeBufferPointer { (buffer) throws(Problem) in try text(buffer, line: line) })
                        guard index == bytes.count || bytes[index] == comma || bytes[index] == lf || bytes[index] == cr else {
                            throw Problem(
                                line: line, reason: "text after a quoted field's closing quote (a quote inside a field is doubled: \"\")")
                        }
                    } else {
                        let begin = index
                        let end = bytes.withUnsafeBufferPointer { buffer in
                            var i = begin
                            while i < buffer.count, buffer[i] != comma, buffer[i] != lf, buffer[i] != cr, buffer[i] != quote { i += 1 }
                            return i
                        }
                        index = end
                        if index < bytes.count, bytes[index] == quote {
                            throw Problem(line: line, reason: "a quote inside an unquoted field (quote the field and double the quote)")
                        }
                        fields.append(
                            try bytes.withUnsafeBufferPointer { (buffer) throws(Problem) in
                                try text(UnsafeBufferPointer(rebasing: buffer[begin..<end]), line: line)
                            })
                    }
                    if index < bytes.count, bytes[index] == comma {
                        index += 1
                    } else {
                        if index < bytes.count, bytes[index] == cr { index += 1 }
                        if index < bytes.count, bytes[index] == lf { index += 1 }
                        line += 1
                        atEnd = true
                    }
                }
                // An empty line is no record (a file's final line break makes none).
                if fields.count == 1, fields[0].isEmpty, !quotedAny { continue }
                return start
            }
            return nil
        }
    }

    /// A field's bytes as text: ASCII at once (it needs no repair), the rest validated.
    private static func text(_ bytes: UnsafeBufferPointer<UInt8>, line: Int) throws(Problem) -> String {
        if !bytes.contains(where: { $0 >= 0x80 }) { return String(decoding: bytes, as: UTF8.self) }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw Problem(line: line, reason: "the text is not UTF-8") }
        return text
    }
}
