import FolioTestSupport
import Foundation
import Testing

extension EndToEnd {
    /// Finding 3 and the idle rule: the highlighted row is always on screen
    /// (after a resize too), and an idle app composes no frames.
    @Suite struct ViewportEndToEndTests {
        @Test func resizingKeepsTheHighlightedRowOnScreen() throws {
            let folio = try FolioBinary("planets")
            for index in 0..<55 { try folio.run("add", "Planet \(index)") }
            let app = try folio.launch(waitingFor: "Mercury", columns: 120, rows: 40)
            defer { app.close() }
            try app.press("PgDn", "PgDn")
            let name = try #require(app.lines.first { $0.hasPrefix("▸") }).dropFirst(2)
            try app.resize(columns: 80, rows: 24)
            let line = try #require(Int(app.state["highlightLine"] ?? ""), "the highlighted row was drawn: \(app.state)")
            #expect(app.lines[line] == "▸ " + name, "\(app.text)")
            try app.resize(columns: 40, rows: 12)
            #expect(app.lines.contains("▸ " + name), "\(app.text)")
            try app.press("d")
            try app.waitFor("permanently delete \(name)?")
        }

        @Test func theWheelBringsTheHighlightAlong() throws {
            let folio = try FolioBinary("planets")
            for index in 0..<30 { try folio.run("add", "Planet \(index)") }
            let app = try folio.launch(waitingFor: "Mercury", columns: 60, rows: 12)
            defer { app.close() }
            for _ in 0..<4 { try app.wheel(column: 5, row: 4, down: true) }
            #expect(app.lines.contains { $0.hasPrefix("▸") }, "\(app.text)")
            #expect(!app.text.contains("Mercury"))
        }

        @Test func anIdleAppComposesNoFrames() throws {
            let folio = try FolioBinary("planets")
            let app = try folio.launch(waitingFor: "Mercury")
            defer { app.close() }
            try app.press("j")
            let frames = app.state["frames"]
            // Nothing can make an idle app draw; a periodic compose would
            // show here within a tenth of a second.
            let end = Date().addingTimeInterval(0.8)
            while Date() < end { app.pump(timeout: 0.05) }
            #expect(app.state["frames"] == frames)
            // A change from another process still reaches the screen.
            try folio.run("add", "Vulcan")
            try app.waitFor("Vulcan")
        }
    }
}
