import FolioTableTestSupport
import Testing

@testable import FolioTerminal

@Suite("Input parser: bytes to events")
struct InputParserTests {
    static func key(_ code: Key.Code, _ modifiers: Key.Modifiers = []) -> InputEvent {
        .key(Key(code, modifiers: modifiers))
    }

    /// Every sequence the terminal sends, with the event it means.
    static let table: [(String, [InputEvent])] = [
        ("\u{1B}[A", [key(.up)]), ("\u{1B}[B", [key(.down)]), ("\u{1B}[C", [key(.right)]), ("\u{1B}[D", [key(.left)]),
        ("\u{1B}OA", [key(.up)]), ("\u{1B}OB", [key(.down)]), ("\u{1B}OC", [key(.right)]), ("\u{1B}OD", [key(.left)]),
        ("\u{1B}[1;2A", [key(.up, .shift)]), ("\u{1B}[1;2B", [key(.down, .shift)]),
        ("\u{1B}[1;2C", [key(.right, .shift)]), ("\u{1B}[1;2D", [key(.left, .shift)]),
        ("\u{1B}[a", [key(.up, .shift)]), ("\u{1B}[b", [key(.down, .shift)]),
        ("\u{1B}[1;5A", [key(.up, .control)]), ("\u{1B}[1;3B", [key(.down, .alt)]), ("\u{1B}[1;6C", [key(.right, [.shift, .control])]),
        ("\u{1B}[H", [key(.home)]), ("\u{1B}[F", [key(.end)]), ("\u{1B}OH", [key(.home)]), ("\u{1B}OF", [key(.end)]),
        ("\u{1B}[1~", [key(.home)]), ("\u{1B}[7~", [key(.home)]), ("\u{1B}[4~", [key(.end)]), ("\u{1B}[8~", [key(.end)]),
        ("\u{1B}[5~", [key(.pageUp)]), ("\u{1B}[6~", [key(.pageDown)]), ("\u{1B}[3~", [key(.delete)]), ("\u{1B}[2~", [key(.insert)]),
        ("\u{1B}[3;2~", [key(.delete, .shift)]), ("\u{1B}[Z", [key(.backTab)]),
        ("\u{1B}OP", [key(.function(1))]), ("\u{1B}OS", [key(.function(4))]), ("\u{1B}[15~", [key(.function(5))]),
        ("\u{1B}[24~", [key(.function(12))]),
        ("\r", [key(.enter)]), ("\n", [key(.enter)]), ("\t", [key(.tab)]), ("\u{7F}", [key(.backspace)]), ("\u{08}", [key(.backspace)]),
        ("\u{03}", [key(.character("c"), .control)]), ("\u{01}", [key(.character("a"), .control)]),
        ("\u{00}", [key(.character(" "), .control)]), ("\u{1C}", [key(.character("\\"), .control)]),
        ("jk", [key(.character("j")), key(.character("k"))]), ("K", [key(.character("K"))]), ("+", [key(.character("+"))]),
        ("?", [key(.character("?"))]),
        ("é", [key(.character("é"))]), ("語", [key(.character("語"))]), ("👍🏽", [key(.character("👍🏽"))]),
        ("e\u{301}", [key(.character("e\u{301}"))]),
        ("\u{1B}b", [key(.character("b"), .alt)]), ("\u{1B}\u{1B}[A", [key(.escape), key(.up)]),
        ("\u{1B}[<0;5;3M", [.mouse(MouseEvent(kind: .press(.left), column: 4, row: 2))]),
        ("\u{1B}[<0;5;3m", [.mouse(MouseEvent(kind: .release, column: 4, row: 2))]),
        ("\u{1B}[<2;1;1M", [.mouse(MouseEvent(kind: .press(.right), column: 0, row: 0))]),
        ("\u{1B}[<32;10;4M", [.mouse(MouseEvent(kind: .drag(.left), column: 9, row: 3))]),
        ("\u{1B}[<35;10;4M", [.mouse(MouseEvent(kind: .move, column: 9, row: 3))]),
        ("\u{1B}[<64;7;8M", [.mouse(MouseEvent(kind: .wheelUp, column: 6, row: 7))]),
        ("\u{1B}[<65;7;8M", [.mouse(MouseEvent(kind: .wheelDown, column: 6, row: 7))]),
        ("\u{1B}[<4;2;2M", [.mouse(MouseEvent(kind: .press(.left), column: 1, row: 1, modifiers: .shift))]),
        ("\u{1B}[<0;200;100M", [.mouse(MouseEvent(kind: .press(.left), column: 199, row: 99))]),
        ("\u{1B}[200~hello\u{1B}[A\r\u{1B}[201~", [.paste("hello\u{1B}[A\r")]),
        ("\u{1B}[I\u{1B}[Oq", [key(.character("q"))]),  // focus reports are dropped
    ]

    @Test("Every known sequence parses to its event")
    func knownSequences() {
        for (input, expected) in Self.table {
            let result = InputParser.parse(Array(input.utf8), atEnd: true)
            #expect(result.events == expected, "\(input.debugDescription)")
            #expect(result.consumed == input.utf8.count, "\(input.debugDescription)")
        }
    }

    @Test("Any sequence split at any byte gives the same events")
    func splitReads() {
        for (input, expected) in Self.table {
            let bytes = Array(input.utf8)
            for cut in 0...bytes.count {
                var parser = InputParser()
                var events = parser.feed(Array(bytes[..<cut]))
                events += parser.feed(Array(bytes[cut...]))
                events += parser.flush()
                // A cut between the scalars of one grapheme may split it into two keys.
                #expect(Self.joined(events) == Self.joined(expected), "\(input.debugDescription) cut at \(cut)")
            }
            var byByte = InputParser()
            var events: [InputEvent] = []
            for byte in bytes { events += byByte.feed([byte]) }
            events += byByte.flush()
            #expect(Self.joined(events) == Self.joined(expected), "\(input.debugDescription) byte by byte")
        }
    }

    /// Events with runs of plain characters joined into one string.
    static func joined(_ events: [InputEvent]) -> [String] {
        var out: [String] = []
        var text = ""
        for event in events {
            if case .key(let key) = event, key.modifiers.isEmpty, case .character(let character) = key.code {
                text.append(character)
                continue
            }
            if !text.isEmpty { out.append("text:" + text); text = "" }
            out.append("\(event)")
        }
        if !text.isEmpty { out.append("text:" + text) }
        return out
    }

    @Test("Invalid UTF-8 becomes U+FFFD and the bytes after it are kept")
    func invalidUTF8() {
        #expect(InputParser.parse([0xFF, 0x78], atEnd: false).events == [Self.key(.character("\u{FFFD}")), Self.key(.character("x"))])
        #expect(InputParser.parse([0xE8, 0x78], atEnd: false).events == [Self.key(.character("\u{FFFD}")), Self.key(.character("x"))])
        #expect(InputParser.parse([0xC2, 0x9B], atEnd: false).events == [Self.key(.character("\u{FFFD}"))])  // C1 CSI is not text
    }

    @Test("Esc alone is pending until flushed; Esc followed by a sequence is not Esc")
    func escapeAlone() {
        var parser = InputParser()
        #expect(parser.feed([0x1B]).isEmpty)
        #expect(parser.hasPending)
        #expect(parser.flush() == [Self.key(.escape)])
        #expect(!parser.hasPending)
        #expect(parser.feed(Array("\u{1B}[".utf8)).isEmpty)
        #expect(parser.feed(Array("B".utf8)) == [Self.key(.down)])
    }

    @Test("A sequence cut off by a pause becomes Esc and typed keys, losing nothing")
    func truncatedSequences() {
        #expect(InputParser.parse(Array("\u{1B}[".utf8), atEnd: true).events == [Self.key(.escape), Self.key(.character("["))])
        #expect(
            InputParser.parse(Array("\u{1B}[1;".utf8), atEnd: true).events
                == [Self.key(.escape), Self.key(.character("[")), Self.key(.character("1")), Self.key(.character(";"))])
        #expect(InputParser.parse(Array("\u{1B}[200~abc".utf8), atEnd: true).events == [.paste("abc")])
        #expect(InputParser.parse([0xE8, 0xAA], atEnd: true).events == [Self.key(.character("\u{FFFD}"))])
        #expect(InputParser.parse([0xE8, 0xAA], atEnd: false).consumed == 0)
    }

    @Test("Random byte soup never traps and never loses the parser's place")
    func fuzz() {
        var random = ResultsRandom.printingSeed("input fuzz")
        let alphabet: [UInt8] = [
            0x1B, 0x5B, 0x4F, 0x3C, 0x3B, 0x31, 0x32, 0x7E, 0x41, 0x4D, 0x6D, 0x61, 0xE8, 0xAA, 0x9E, 0x0D, 0x7F, 0x30,
        ]
        for _ in 0..<3_000 {
            let bytes = (0..<Int.random(in: 0...12, using: &random)).map { _ in alphabet.randomElement(using: &random)! }
            let result = InputParser.parse(bytes, atEnd: false)
            #expect(result.consumed <= bytes.count)
            let whole = InputParser.parse(bytes, atEnd: true)
            #expect(whole.consumed == bytes.count)
        }
    }
}
