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

    /// Creates a parser with nothing pending.
    ///
    /// ```swift
    /// var parser = InputParser()
    /// ```
    public init() {}

    /// Whether bytes of an unfinished sequence are waiting.
    ///
    /// ```swift
    /// if parser.hasPending { /* flush after 25 ms */ }
    /// ```
    public var hasPending: Bool { !pending.isEmpty }

    /// Parses newly read bytes (after any still pending).
    ///
    /// - Complexity: O(n) in the bytes.
    /// ```swift
    /// let events = parser.feed(Array("jj".utf8))
    /// ```
    public mutating func feed(_ bytes: [UInt8]) -> [InputEvent] {
        pending.append(contentsOf: bytes)
        let result = InputParser.parse(pending, atEnd: false)
        pending.removeFirst(result.consumed)
        return result.events
    }

    /// Treats what is pending as complete: a lone ESC becomes Esc.
    ///
    /// - Complexity: O(p) in the pending bytes.
    /// ```swift
    /// let events = parser.flush()
    /// ```
    public mutating func flush() -> [InputEvent] {
        let result = InputParser.parse(pending, atEnd: true)
        pending.removeAll()
        return result.events
    }

    /// The pure parser: events for `bytes` and how many bytes they used.
    /// Unless `atEnd`, an unfinished sequence at the end is left unconsumed.
    ///
    /// - Complexity: O(n) in the bytes.
    /// ```swift
    /// InputParser.parse(Array("\u{1B}[<0;5;3M".utf8), atEnd: false).events
    /// // [.mouse(MouseEvent(kind: .press(.left), column: 4, row: 2))]
    /// ```
    public static func parse(_ bytes: [UInt8], atEnd: Bool) -> (events: [InputEvent], consumed: Int) {
        var scanner = Scanner(bytes: bytes, atEnd: atEnd)
        scanner.run()
        return (scanner.events, scanner.consumed)
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
