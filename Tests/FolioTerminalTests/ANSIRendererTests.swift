import FolioTableTestSupport
import Testing

@testable import FolioTerminal

@Suite("ANSI renderer: only the difference is written")
struct ANSIRendererTests {
    @Test("An unchanged frame writes nothing; a one-cell change writes a few bytes")
    func minimalOutput() {
        var renderer = ANSIRenderer(colors: true)
        var screen = Screen(width: 120, height: 40)
        screen.draw("Planets", at: 0, row: 0)
        let first = renderer.render(screen)
        #expect(!first.isEmpty)
        #expect(renderer.render(screen).isEmpty)
        screen.draw("X", at: 50, row: 20)
        let change = String(decoding: renderer.render(screen), as: UTF8.self)
        #expect(change == "\u{1B}[21;51HX")
    }

    @Test("A resize or invalidate makes a full redraw that starts by clearing")
    func fullRedraw() {
        var renderer = ANSIRenderer(colors: true)
        let screen = Screen(width: 10, height: 2)
        _ = renderer.render(screen)
        renderer.invalidate()
        #expect(String(decoding: renderer.render(screen), as: UTF8.self).hasPrefix("\u{1B}[0m\u{1B}[H\u{1B}[2J"))
        let bigger = Screen(width: 12, height: 3)
        #expect(String(decoding: renderer.render(bigger), as: UTF8.self).contains("\u{1B}[2J"))
    }

    @Test("Without colour, reverse video and bold remain and no colour code is written")
    func monochrome() {
        var renderer = ANSIRenderer(colors: false)
        var screen = Screen(width: 10, height: 1)
        screen.draw("Delete", at: 0, row: 0, style: Style(foreground: .red, background: .blue, attributes: [.reverse, .bold]))
        let output = String(decoding: renderer.render(screen), as: UTF8.self)
        #expect(output.contains("\u{1B}[0;1;7m"))
        #expect(!output.contains(";31"))
        #expect(!output.contains(";44"))
        var colored = ANSIRenderer(colors: true)
        #expect(String(decoding: colored.render(screen), as: UTF8.self).contains("\u{1B}[0;1;7;31;44m"))
    }

    @Test("Random frames: the bytes written turn the terminal into exactly the new frame")
    @MainActor
    func randomFrames() {
        var random = ResultsRandom.printingSeed("renderer frames")
        let pieces = ["a", "b", "語", "👍🏽", "e\u{301}", " ", "xyz"]
        let styles = [Style.plain, Style(attributes: .reverse), Style(foreground: .red), Style(background: .blue, attributes: .bold)]
        let driver = TerminalRecordingDriver(columns: 17, rows: 5)
        var screen = Screen(width: 17, height: 5)
        for frame in 0..<400 {
            for _ in 0..<Int.random(in: 0...6, using: &random) {
                let text = (0..<Int.random(in: 1...4, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
                screen.draw(
                    text, at: Int.random(in: 0..<17, using: &random), row: Int.random(in: 0..<5, using: &random),
                    style: styles.randomElement(using: &random)!)
            }
            if frame % 97 == 0 { driver.invalidate() }
            driver.present(screen)
            #expect(driver.emulator.screen == screen, "frame \(frame)")
            #expect(driver.emulator.unknownSequences.isEmpty)
            if driver.emulator.screen != screen { break }
        }
    }
}

@Suite("ANSI renderer: scrolled bands")
struct ANSIRendererScrollTests {
    static func rows(_ first: Int, width: Int = 30, height: Int = 12) -> Screen {
        var screen = Screen(width: width, height: height)
        screen.draw("Title", at: 0, row: 0, style: Style(attributes: .bold))
        for row in 1..<(height - 1) { screen.draw("Row \(first + row) 語", at: 2, row: row) }
        screen.draw("hint bar", at: 0, row: height - 1, style: Style(attributes: .dim))
        return screen
    }

    @Test("A table scrolled by 1 to 3 rows is scrolled in the terminal, and the result is exact", arguments: [1, 2, 3, -1, -2, -3])
    @MainActor
    func scrolled(by amount: Int) {
        let driver = TerminalRecordingDriver(columns: 30, rows: 12)
        driver.present(Self.rows(100))
        var next = Self.rows(100 + amount)
        next.draw("▸", at: 0, row: 5, style: Style(attributes: .reverse))
        driver.present(next)
        let bytes = String(decoding: driver.writes.last!, as: UTF8.self)
        #expect(bytes.contains(amount > 0 ? "\u{1B}[\(amount)S" : "\u{1B}[\(-amount)T"))
        #expect(bytes.contains("\u{1B}[r"))
        #expect(driver.emulator.screen == next)
        #expect(driver.writes.last!.count < driver.writes.first!.count / 2)
    }

    @Test("Scroll detection finds the moved band and ignores unrelated changes")
    func band() {
        let old = Self.rows(0)
        let new = Self.rows(1)
        let band = ANSIRenderer.scrollBand(from: old, to: new)
        #expect(band?.amount == 1)
        #expect(band?.top == 1)
        #expect(band?.bottom == 10)
        #expect(ANSIRenderer.scrollBand(from: old, to: old) == nil)
        var unrelated = old
        unrelated.draw("changed", at: 0, row: 4)
        #expect(ANSIRenderer.scrollBand(from: old, to: unrelated) == nil)
    }
}
