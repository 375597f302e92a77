import Testing

@testable import FolioTerminal

@Suite("Wrapping text and drawing boxes")
struct TextLayoutTests {
    @Test("Wrap breaks at spaces, keeps paragraphs, and cuts long words at grapheme boundaries")
    func wrap() {
        #expect(
            DisplayText.wrap("Are you sure you want to permanently delete Mercury?", width: 20)
                == ["Are you sure you", "want to permanently", "delete Mercury?"])
        #expect(DisplayText.wrap("one\ntwo", width: 10) == ["one", "two"])
        #expect(DisplayText.wrap("abcdefgh", width: 3) == ["abc", "def", "gh"])
        #expect(DisplayText.wrap("日本語テキスト", width: 5) == ["日本", "語テ", "キス", "ト"])
        #expect(DisplayText.wrap("x", width: 0) == [])
        for width in 1...12 {
            for line in DisplayText.wrap("Please select a race first 👩‍👩‍👧‍👦 日本語", width: width) {
                #expect(DisplayWidth.of(line) <= max(width, 2), "width \(width): \(line)")
            }
        }
    }

    @Test("A box has corners, edges and a cleared inside; a divider joins its edges")
    func box() {
        var screen = Screen(width: 6, height: 4)
        screen.draw("xxxxxx", at: 0, row: 1)
        screen.drawBox(screen.bounds)
        screen.drawDivider(in: screen.bounds, row: 2)
        #expect(screen.text == "┌────┐\n│    │\n├────┤\n└────┘")
    }
}
