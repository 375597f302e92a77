import FolioTableTestSupport
import Testing

@testable import FolioTerminal

@Suite("Screen: a grid of graphemes with style and width")
struct ScreenTests {
    @Test("Drawing text fills cells; wide graphemes take a cell and a continuation")
    func drawing() {
        var screen = Screen(width: 10, height: 2)
        let used = screen.draw("a語b", at: 1, row: 0)
        #expect(used == 4)
        #expect(screen.line(0) == " a語b     ".replacingOccurrences(of: "語", with: "語"))
        #expect(screen[2, 0].width == 2)
        #expect(screen[3, 0].isContinuation)
        screen.checkInvariants()
    }

    @Test("Text is cut with an ellipsis at the screen's edge and at maxWidth")
    func clipping() {
        var screen = Screen(width: 8, height: 1)
        screen.draw("Mercury and Venus", at: 0, row: 0)
        #expect(screen.line(0) == "Mercury…")
        screen.draw("日本語テ", at: 0, row: 0, maxWidth: 5)
        #expect(screen.line(0).hasPrefix("日本…"))
        screen.checkInvariants()
    }

    @Test("Overwriting half of a wide grapheme blanks the other half")
    func overwriteHalf() {
        var screen = Screen(width: 6, height: 1)
        screen.draw("語語語", at: 0, row: 0)
        screen.draw("x", at: 1, row: 0)  // right half of the first
        screen.checkInvariants()
        #expect(screen.line(0) == " x語語")
        screen.draw("y", at: 2, row: 0)  // left half of the second
        screen.checkInvariants()
        #expect(screen.line(0) == " xy 語")
        screen.fill(Rect(x: 5, y: 0, width: 1, height: 1))
        screen.checkInvariants()
        #expect(screen.line(0) == " xy   ")
    }

    @Test("Alignment inside a rectangle")
    func alignment() {
        var screen = Screen(width: 11, height: 3)
        screen.draw("abc", in: Rect(x: 0, y: 0, width: 11, height: 1), alignment: .left)
        screen.draw("abc", in: Rect(x: 0, y: 1, width: 11, height: 1), alignment: .center)
        screen.draw("abc", in: Rect(x: 0, y: 2, width: 11, height: 1), alignment: .right)
        #expect(screen.text == "abc        \n    abc    \n        abc")
    }

    @Test("Random drawing keeps wide graphemes whole")
    func randomDrawing() {
        var random = ResultsRandom.printingSeed("screen drawing")
        let pieces = ["a", "語", "👍🏽", "e\u{301}", "\u{1B}", "🇫🇷", " ", "…"]
        var screen = Screen(width: 13, height: 3)
        for _ in 0..<2_000 {
            let text = (0..<Int.random(in: 0...5, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            let column = Int.random(in: 0..<13, using: &random)
            let row = Int.random(in: 0..<3, using: &random)
            if Bool.random(using: &random) {
                screen.draw(text, at: column, row: row, maxWidth: Int.random(in: 0...13, using: &random))
            } else {
                screen.fill(Rect(x: column, y: row, width: Int.random(in: 0...4, using: &random), height: 1))
            }
            screen.checkInvariants()
        }
    }
}
