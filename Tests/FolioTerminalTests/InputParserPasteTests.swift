import Testing

@testable import FolioTerminal

@Suite("Bracketed paste across reads")
struct InputParserPasteTests {
    static func pasted(_ events: [InputEvent]) -> String {
        events.map { event -> String in
            if case .paste(let text) = event { return text }
            Issue.record("not a paste: \(event)")
            return ""
        }.joined()
    }

    @Test("A paste split anywhere, its end marker too, is one paste and nothing else")
    func splitAnywhere() {
        let whole = Array("\u{1B}[200~héllo\r\nq wörld\u{1B}[201~j".utf8)
        for first in 1..<whole.count {
            for second in first..<whole.count {
                var parser = InputParser()
                let events =
                    parser.feed(Array(whole[..<first])) + parser.feed(Array(whole[first..<second]))
                    + parser.feed(Array(whole[second...]))
                #expect(events == [.paste("héllo\r\nq wörld"), .key(Key(.character("j")))], "split at \(first), \(second)")
                #expect(!parser.hasPending)
            }
        }
    }

    @Test("A pause inside a paste hands over what came, and the rest stays paste, never keys")
    func flushInsideAPaste() {
        var parser = InputParser()
        var events = parser.feed(Array("\u{1B}[200~first ".utf8))
        #expect(events.isEmpty)
        #expect(parser.hasPending)
        events += parser.flush()
        events += parser.feed(Array("line\rq\u{1B}[20".utf8))
        events += parser.flush()
        events += parser.feed(Array("1~k".utf8))
        let keys = events.filter { if case .key = $0 { return true } else { return false } }
        #expect(keys == [.key(Key(.character("k")))], "\(events)")
        #expect(Self.pasted(events.filter { if case .paste = $0 { return true } else { return false } }) == "first line\rq")
        #expect(!parser.hasPending)
    }

    @Test("A megabyte pasted in 4 KB reads arrives whole")
    func large() {
        var parser = InputParser()
        let text = String(repeating: "abcdefgh", count: 131_072)
        let bytes = Array("\u{1B}[200~\(text)\u{1B}[201~".utf8)
        var events: [InputEvent] = []
        var offset = 0
        while offset < bytes.count {
            events += parser.feed(Array(bytes[offset..<min(bytes.count, offset + 4096)]))
            offset += 4096
        }
        #expect(events == [.paste(text)])
    }
}
