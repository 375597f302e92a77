import Testing

@testable import FolioTerminal

@Suite("Input parser: every combination")
struct InputParserExhaustiveTests {
    static func parse(_ text: String) -> [InputEvent] {
        InputParser.parse(Array(text.utf8), atEnd: true).events
    }

    @Test("Every xterm modifier parameter on every CSI cursor and tilde key")
    func modifiers() {
        let finals: [(String, Key.Code)] = [("A", .up), ("B", .down), ("C", .right), ("D", .left), ("H", .home), ("F", .end)]
        let tildes: [(Int, Key.Code)] = [
            (1, .home), (2, .insert), (3, .delete), (4, .end), (5, .pageUp), (6, .pageDown),
            (7, .home), (8, .end), (11, .function(1)), (15, .function(5)), (17, .function(6)),
            (21, .function(10)), (23, .function(11)), (24, .function(12)),
        ]
        for parameter in 1...8 {
            var modifiers: Key.Modifiers = []
            if (parameter - 1) & 1 != 0 { modifiers.insert(.shift) }
            if (parameter - 1) & 2 != 0 { modifiers.insert(.alt) }
            if (parameter - 1) & 4 != 0 { modifiers.insert(.control) }
            for (final, code) in finals {
                #expect(Self.parse("\u{1B}[1;\(parameter)\(final)") == [.key(Key(code, modifiers: modifiers))], "\(parameter)\(final)")
            }
            for (number, code) in tildes {
                #expect(Self.parse("\u{1B}[\(number);\(parameter)~") == [.key(Key(code, modifiers: modifiers))], "\(number);\(parameter)~")
            }
        }
    }

    @Test("Every C0 control byte and every printable ASCII byte")
    func singleBytes() {
        for byte in UInt8(0)..<0x80 where byte != 0x1B {
            let events = InputParser.parse([byte], atEnd: true).events
            #expect(events.count == 1, "byte \(byte)")
            guard case .key(let key)? = events.first else {
                Issue.record("byte \(byte) gave \(events)")
                continue
            }
            switch byte {
            case 0x0D, 0x0A: #expect(key == Key(.enter))
            case 0x09: #expect(key == Key(.tab))
            case 0x08, 0x7F: #expect(key == Key(.backspace))
            case 0x20..<0x7F: #expect(key == Key(.character(Character(UnicodeScalar(byte)))))
            default: #expect(key.modifiers == .control, "byte \(byte)")
            }
        }
    }

    @Test("Every SGR mouse button code maps to one event kind, with modifiers")
    func mouseCodes() {
        for code in 0..<128 {
            for final in ["M", "m"] {
                let events = Self.parse("\u{1B}[<\(code);3;4\(final)")
                #expect(events.count <= 1)
                guard case .mouse(let mouse)? = events.first else {
                    // Only a motion-less press of "no button" carries nothing.
                    #expect(code & 3 == 3 && code & 96 == 0 && final == "M", "code \(code)\(final)")
                    continue
                }
                #expect(mouse.column == 2 && mouse.row == 3)
                #expect(mouse.modifiers.contains(.shift) == (code & 4 != 0))
                #expect(mouse.modifiers.contains(.control) == (code & 16 != 0))
                if code & 64 != 0 {
                    #expect([.wheelUp, .wheelDown, .wheelLeft, .wheelRight].contains(mouse.kind))
                } else if final == "m" {
                    #expect(mouse.kind == .release)
                }
            }
        }
    }

    @Test("Alt with every printable ASCII key")
    func altKeys() {
        for byte in UInt8(0x20)..<0x7F where byte != UInt8(ascii: "[") && byte != UInt8(ascii: "O") {
            let character = Character(UnicodeScalar(byte))
            #expect(Self.parse("\u{1B}" + String(character)) == [.key(Key(.character(character), modifiers: .alt))], "Alt-\(character)")
        }
    }
}
