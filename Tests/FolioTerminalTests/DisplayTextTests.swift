import Testing

@testable import FolioTerminal

@Suite("Sanitising and truncating text from data")
struct DisplayTextTests {
    @Test("Escape sequences in data are drawn visibly and never reach the terminal raw")
    func escapeSequences() {
        let hostile = "Home\u{1B}]0;owned\u{07}\u{1B}[2J\u{9B}31m"
        let visible = DisplayText.visible(hostile)
        #expect(visible == "Home^[]0;owned^G^[[2J<9B>31m")
        #expect(!visible.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
    }

    @Test("Newlines, tabs, DEL and line separators become pictures")
    func whitespaceControls() {
        #expect(DisplayText.visible("a\r\nb\tc\u{7F}") == "a^M^Jb^Ic^?")
        #expect(DisplayText.visible("x\u{2028}y") == "x<LS>y")
    }

    @Test("Bidirectional overrides are replaced; invisible joiners are dropped")
    func formatCharacters() {
        #expect(DisplayText.visible("abc\u{202E}def") == "abc\u{FFFD}def")
        #expect(DisplayText.visible("a\u{200B}b") == "ab")
        #expect(DisplayText.visible("👩‍👩‍👧") == "👩‍👩‍👧")  // ZWJ inside a cluster is kept
    }

    @Test("A combining mark with no base is shown on a dotted circle")
    func lonelyMark() {
        #expect(DisplayText.visible("\u{301}x") == "\u{25CC}\u{301}x")
        #expect(DisplayWidth.of("\u{301}x") == 2)
    }

    @Test("Truncation ends in an ellipsis and never splits a grapheme")
    func truncation() {
        #expect(DisplayText.truncate("Hello, world", toWidth: 8) == "Hello, …")
        #expect(DisplayText.truncate("Hello", toWidth: 5) == "Hello")
        #expect(DisplayText.truncate("Hello", toWidth: 0) == "")
        #expect(DisplayText.truncate("Hello", toWidth: 1) == "…")
        #expect(DisplayText.truncate("日本語テキスト", toWidth: 7) == "日本語…")
        #expect(DisplayText.truncate("日本語テキスト", toWidth: 6) == "日本…")  // 語 would straddle
        #expect(DisplayText.truncate("ae\u{301}bc", toWidth: 3) == "ae\u{301}…")
        #expect(DisplayText.truncate("👩‍👩‍👧‍👦👍🏽x", toWidth: 4) == "👩‍👩‍👧‍👦…")
    }

    @Test("Truncated text always fits, for every width")
    func truncationFits() {
        let samples = ["", "abc", "日本語テキスト", "e\u{301}e\u{301}e\u{301}", "👍🏽👍🏽👍🏽", "a\u{1B}b", "🇫🇷🇩🇪x"]
        for sample in samples {
            for width in 0...12 {
                let cut = DisplayText.truncate(sample, toWidth: width)
                #expect(DisplayWidth.of(cut) <= width, "\(sample) at \(width): \(cut)")
                if DisplayWidth.of(sample) <= width {
                    #expect(cut == DisplayText.visible(sample))
                } else if width > 0 {
                    #expect(cut.hasSuffix("…"))
                }
            }
        }
    }
}
