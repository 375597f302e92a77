/// Turns terminal input bytes into events: a pure function plus a small
/// buffer for sequences split across reads.
///
/// Esc alone and Esc sequences share a first byte; a lone ESC at the end of
/// the bytes read so far may be the start of a sequence, so it stays pending
/// until more bytes come or the run loop calls `flush()` after a short pause.
/// ```swift
/// var parser = InputParser()
/// parser.feed(Array("\u{1B}[A".utf8))   // [.key(Key(.up))]
/// parser.feed([0x1B])                    // [] (pending)
/// parser.flush()                         // [.key(Key(.escape))]
/// ```
public struct InputParser: Sendable {
    private var pending: [UInt8] = []
    /// The text of a bracketed paste whose end has not arrived yet.
    private var openPaste: [UInt8]?

    /// Creates a parser with nothing pending.
    ///
    /// ```swift
    /// var parser = InputParser()
    /// ```
    public init() {}

    /// Whether bytes of an unfinished sequence (or paste) are waiting.
    ///
    /// ```swift
    /// if parser.hasPending { /* flush after 30 ms */ }
    /// ```
    public var hasPending: Bool { !pending.isEmpty || openPaste != nil }

    /// The end of a bracketed paste.
    static let pasteEnd: [UInt8] = Array("\u{1B}[201~".utf8)

    /// Parses newly read bytes (after any still pending). A paste arriving
    /// over many reads is searched only in the new bytes, so a paste of n
    /// bytes costs O(n) whatever the reads.
    ///
    /// - Complexity: O(n) in the bytes.
    /// ```swift
    /// let events = parser.feed(Array("jj".utf8))
    /// ```
    public mutating func feed(_ bytes: [UInt8]) -> [InputEvent] {
        var events: [InputEvent] = []
        var input = bytes
        if openPaste != nil {
            // `pending` holds at most the start of a split end marker.
            let data = pending + bytes
            pending = []
            guard let end = Self.find(Self.pasteEnd, in: data, from: 0) else {
                continuePaste(data[...])
                return []
            }
            openPaste! += data[..<end]
            events.append(.paste(String(decoding: openPaste!, as: UTF8.self)))
            openPaste = nil
            input = Array(data[(end + Self.pasteEnd.count)...])
        }
        pending.append(contentsOf: input)
        let result = InputParser.parse(pending, atEnd: false)
        events += result.events
        if let start = result.openPaste {
            let rest = pending[start...]
            pending = []
            openPaste = []
            continuePaste(rest)
        } else {
            pending.removeFirst(result.consumed)
        }
        return events
    }

    /// Adds bytes to the open paste, keeping back a possible start of its end marker.
    private mutating func continuePaste(_ data: ArraySlice<UInt8>) {
        var keep = min(Self.pasteEnd.count - 1, data.count)
        while keep > 0 && !data.suffix(keep).elementsEqual(Self.pasteEnd.prefix(keep)) { keep -= 1 }
        openPaste! += data.dropLast(keep)
        pending = Array(data.suffix(keep))
    }

    /// Treats what is pending as complete: a lone ESC becomes Esc. A paste
    /// still open hands over what has arrived (as a paste: it never becomes
    /// keys) and stays open for the rest.
    ///
    /// - Complexity: O(p) in the pending bytes.
    /// ```swift
    /// let events = parser.flush()
    /// ```
    public mutating func flush() -> [InputEvent] {
        if var text = openPaste {
            // An unfinished UTF-8 character waits for the rest of the paste.
            let cut = Self.incompleteUTF8Start(text) ?? text.count
            openPaste = Array(text[cut...])
            text.removeSubrange(cut...)
            return text.isEmpty ? [] : [.paste(String(decoding: text, as: UTF8.self))]
        }
        let result = InputParser.parse(pending, atEnd: true)
        // A paste that started here stays open for the rest of its text.
        if result.openPaste != nil { openPaste = [] }
        pending.removeAll()
        return result.events
    }

    /// The pure parser: events for `bytes` and how many bytes they used.
    /// Unless `atEnd`, an unfinished sequence at the end is left unconsumed.
    /// A paste whose end is not in `bytes` is reported by where its text starts.
    ///
    /// - Complexity: O(n) in the bytes.
    /// ```swift
    /// InputParser.parse(Array("\u{1B}[<0;5;3M".utf8), atEnd: false).events
    /// // [.mouse(MouseEvent(kind: .press(.left), column: 4, row: 2))]
    /// ```
    public static func parse(_ bytes: [UInt8], atEnd: Bool) -> (events: [InputEvent], consumed: Int, openPaste: Int?) {
        var scanner = Scanner(bytes: bytes, atEnd: atEnd)
        scanner.run()
        return (scanner.events, scanner.consumed, scanner.openPaste)
    }

    /// Where `needle` first occurs in `bytes` at or after `start`.
    static func find(_ needle: [UInt8], in bytes: some RandomAccessCollection<UInt8>, from start: Int) -> Int? {
        let base = bytes.startIndex
        var cursor = start
        while cursor + needle.count <= bytes.count {
            if bytes[bytes.index(base, offsetBy: cursor)] == needle[0],
                bytes[bytes.index(base, offsetBy: cursor)..<bytes.index(base, offsetBy: cursor + needle.count)].elementsEqual(needle)
            {
                return cursor
            }
            cursor += 1
        }
        return nil
    }

    /// Where an unfinished UTF-8 sequence at the end of `bytes` starts, if any.
    package static func incompleteUTF8Start(_ bytes: [UInt8]) -> Int? {
        var index = bytes.count - 1
        var continuation = 0
        while index >= 0, continuation < 3, bytes[index] & 0xC0 == 0x80 {
            continuation += 1
            index -= 1
        }
        guard index >= 0 else { return nil }
        let lead = bytes[index]
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
        return length > continuation + 1 ? index : nil
    }
}

extension InputParser {
    /// One pass over the bytes.
    struct Scanner {
        let bytes: [UInt8]
        let atEnd: Bool
        var index = 0
        var consumed = 0
        var events: [InputEvent] = []
        /// Where the text of a paste without its end starts.
        var openPaste: Int?
        /// Printable scalars gathered so that combining marks join their base.
        var text = ""

        init(bytes: [UInt8], atEnd: Bool) {
            self.bytes = bytes
            self.atEnd = atEnd
        }

        mutating func run() {
            while index < bytes.count {
                let start = index
                guard step() else {
                    index = start  // unfinished: leave for the next read
                    break
                }
            }
            flushText()
            consumed = index
        }

        mutating func emit(_ event: InputEvent) {
            flushText()
            events.append(event)
        }

        mutating func emit(_ code: Key.Code, _ modifiers: Key.Modifiers = []) {
            emit(.key(Key(code, modifiers: modifiers)))
        }

        mutating func flushText() {
            guard !text.isEmpty else { return }
            for character in text {
                events.append(.key(Key(.character(character))))
            }
            text = ""
        }

        /// Parses one unit at `index`; returns false when it is unfinished.
        mutating func step() -> Bool {
            let byte = bytes[index]
            switch byte {
            case 0x1B:
                return escape()
            case 0x0D, 0x0A:
                index += 1
                emit(.enter)
            case 0x09:
                index += 1
                emit(.tab)
            case 0x7F, 0x08:
                index += 1
                emit(.backspace)
            case 0x00:
                index += 1
                emit(.character(" "), .control)
            case 0x01...0x1A:
                index += 1
                emit(.character(Character(UnicodeScalar(byte + 0x60))), .control)
            case 0x1C...0x1F:
                index += 1
                emit(.character(Character(UnicodeScalar(byte + 0x40))), .control)
            case 0x20..<0x7F:
                index += 1
                text.unicodeScalars.append(UnicodeScalar(byte))
            default:
                return utf8()
            }
            return true
        }

        /// A multi-byte UTF-8 scalar; invalid bytes become U+FFFD.
        mutating func utf8() -> Bool {
            let lead = bytes[index]
            let length: Int
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0...0xEF: length = 3
            case 0xF0...0xF4: length = 4
            default:
                index += 1
                text.unicodeScalars.append("\u{FFFD}")
                return true
            }
            var value = UInt32(lead) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
            for offset in 1..<length {
                guard index + offset < bytes.count else {
                    if atEnd {
                        index = bytes.count
                        text.unicodeScalars.append("\u{FFFD}")
                        return true
                    }
                    return false
                }
                let next = bytes[index + offset]
                guard next & 0xC0 == 0x80 else {
                    index += offset
                    text.unicodeScalars.append("\u{FFFD}")
                    return true
                }
                value = value << 6 | UInt32(next & 0x3F)
            }
            index += length
            if let scalar = UnicodeScalar(value), DisplayText.isControl(scalar) == false {
                text.unicodeScalars.append(scalar)
            } else {
                text.unicodeScalars.append("\u{FFFD}")
            }
            return true
        }

        /// ESC: alone, CSI, SS3, or Alt plus a key.
        mutating func escape() -> Bool {
            guard index + 1 < bytes.count else {
                if !atEnd { return false }
                index += 1
                emit(.escape)
                return true
            }
            switch bytes[index + 1] {
            case UInt8(ascii: "["):
                return csi()
            case UInt8(ascii: "O"):
                return ss3()
            case 0x1B:
                index += 1
                emit(.escape)
                return true
            default:
                // Alt plus the next key: parse it alone, then add Alt.
                index += 1
                flushText()
                let mark = events.count
                guard step() else { return false }
                flushText()
                if events.count > mark, case .key(var key) = events[mark] {
                    key.modifiers.insert(.alt)
                    events[mark] = .key(key)
                }
                return true
            }
        }

        /// ESC O x: arrows, Home/End and F1-F4 from keypads in application mode.
        mutating func ss3() -> Bool {
            guard index + 2 < bytes.count else {
                if !atEnd { return false }
                index += 2
                emit(.character("O"), .alt)
                return true
            }
            let final = bytes[index + 2]
            index += 3
            switch final {
            case UInt8(ascii: "A"): emit(.up)
            case UInt8(ascii: "B"): emit(.down)
            case UInt8(ascii: "C"): emit(.right)
            case UInt8(ascii: "D"): emit(.left)
            case UInt8(ascii: "H"): emit(.home)
            case UInt8(ascii: "F"): emit(.end)
            case UInt8(ascii: "M"): emit(.enter)
            case UInt8(ascii: "P")...UInt8(ascii: "S"): emit(.function(Int(final) - 0x50 + 1))
            default: break  // unknown: dropped
            }
            return true
        }
    }
}
