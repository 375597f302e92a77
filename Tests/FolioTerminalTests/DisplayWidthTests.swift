import Testing

@testable import FolioTerminal

@Suite("Display width per grapheme cluster")
struct DisplayWidthTests {
    @Test("ASCII letters, digits and punctuation are one column")
    func ascii() {
        for byte in UInt8(0x20)..<0x7F {
            #expect(DisplayWidth.of(Character(UnicodeScalar(byte))) == 1, "byte \(byte)")
        }
        #expect(DisplayWidth.of("Hello, world!") == 13)
    }

    @Test("CJK ideographs, kana, Hangul syllables and fullwidth forms are two columns")
    func cjk() {
        for text in ["語", "日", "カ", "한", "Ａ", "。", "\u{20000}"] {
            #expect(DisplayWidth.of(Character(text)) == 2, "\(text)")
        }
        #expect(DisplayWidth.of("日本語") == 6)
        #expect(DisplayWidth.of("a語b") == 4)
        // Halfwidth katakana stays narrow.
        #expect(DisplayWidth.of("ｶ" as Character) == 1)
    }

    @Test("Emoji: presentation, skin tones, ZWJ sequences, flags and VS16 are one two-column unit")
    func emoji() {
        #expect(DisplayWidth.of("😀" as Character) == 2)
        #expect(DisplayWidth.of("👍🏽" as Character) == 2)  // skin-tone modifier
        #expect(DisplayWidth.of("👩‍👩‍👧‍👦" as Character) == 2)  // family ZWJ sequence
        #expect(DisplayWidth.of("🏳️‍🌈" as Character) == 2)  // flag with VS16 and ZWJ
        #expect(DisplayWidth.of("🇫🇷" as Character) == 2)  // regional-indicator pair
        #expect(DisplayWidth.of("❤️" as Character) == 2)  // text-default heart with VS16
        #expect(DisplayWidth.of("❤" as Character) == 1)  // text presentation without VS16
        #expect(DisplayWidth.of("1️⃣" as Character) == 2)  // keycap
        #expect(DisplayWidth.of("👍🏽👍🏽") == 4)
    }

    @Test("Combining marks add nothing to their base; Hangul jamo join their syllable")
    func combining() {
        #expect(DisplayWidth.of("e\u{301}" as Character) == 1)
        #expect(DisplayWidth.of("e\u{301}\u{323}" as Character) == 1)
        #expect(DisplayWidth.of("ñ") == 1)
        #expect(DisplayWidth.of("\u{1100}\u{1161}\u{11A8}" as Character) == 2)  // 각 from jamo
        #expect(DisplayWidth.of(Unicode.Scalar(0x301)!) == 0)
        #expect(DisplayWidth.of(Unicode.Scalar(0x200D)!) == 0)
    }

    @Test("Control characters are drawn visibly, so they have the width of their picture")
    func controls() {
        #expect(DisplayWidth.of("\u{1B}") == 2)  // ^[
        #expect(DisplayWidth.of("a\nb") == 4)  // a^Jb
        #expect(DisplayWidth.of("\u{7F}") == 2)  // ^?
        #expect(DisplayWidth.of("\u{9B}") == 4)  // <9B>
        #expect(DisplayWidth.of(Unicode.Scalar(0x1B)!) == 0)
    }

    @Test("The table names its Unicode version and its ranges are sorted and disjoint")
    func table() {
        #expect(!WidthTable.unicodeVersion.isEmpty)
        for ranges in [WidthTable.wide, WidthTable.zero] {
            #expect(ranges.count % 2 == 0)
            var last: UInt32? = nil
            for pair in stride(from: 0, to: ranges.count, by: 2) {
                #expect(ranges[pair] <= ranges[pair + 1])
                if let last { #expect(ranges[pair] > last) }
                last = ranges[pair + 1]
            }
        }
    }
}
