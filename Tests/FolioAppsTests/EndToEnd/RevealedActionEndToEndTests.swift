import FolioTestSupport
import Foundation
import Testing

extension EndToEnd {
    /// Finding 1: a revealed Delete belongs to the highlighted row. Moving the
    /// highlight (or swiping with the mouse elsewhere) hides it, so Enter can
    /// never delete a row the cursor is not on.
    @Suite struct RevealedActionEndToEndTests {
        @Test func locationsEditModeDeleteThenMovingHidesTheButton() throws {
            let folio = try FolioBinary("locations")
            let app = try folio.launch(waitingFor: "Tag Location")
            defer { app.close() }
            try app.press("2")
            try app.waitFor("Infinite Loop")
            try app.press("e")
            try app.waitFor("[Done]")
            let before = try folio.listed()
            #expect(app.state["highlightID"] != nil)
            try app.press("d")
            try app.waitFor("✕ Delete")
            try app.press("j")
            #expect(!app.text.contains("✕ Delete"), "moving the highlight hides the button:\n\(app.text)")
            #expect(app.state["confirming"] == nil)
            try app.press("Enter")
            #expect(try folio.listed() == before, "Enter deleted nothing")
        }

        @Test func planetsEditModeSheetNamesTheHighlightedPlanet() throws {
            let folio = try FolioBinary("planets")
            let app = try folio.launch(waitingFor: "Mercury")
            defer { app.close() }
            try app.press("e", "G", "d")  // Team Pluto!: its Delete button
            try app.waitFor("✕ Delete")
            try app.press("k")  // Neptune
            try app.waitFor("▸ ⊖ Neptune")
            try app.press("Enter")
            #expect(!app.text.contains("Team Pluto!?"), "no sheet about a row the cursor left:\n\(app.text)")
            try app.press("d", "d")
            try app.waitFor("permanently delete Neptune?")
        }

        @Test func buildGuideDeleteThenMovingDeletesNothing() throws {
            let folio = try FolioBinary("guides")
            try folio.run("add-unit", "Cannon Rush", "Pylon")
            try folio.run("add-unit", "Cannon Rush", "Forge")
            let app = try folio.launch(waitingFor: "Cannon Rush")
            defer { app.close() }
            try app.press("Down")  // the seed's guides sort "4-gate pressure" first
            try app.waitFor("▸ Cannon Rush")
            try app.press("Enter")
            try app.waitFor("Build Order")
            try app.press("Down", "Down")  // Pylon
            try app.waitFor("▸ ⊖ Pylon")
            try app.press("d")
            try app.waitFor("✕ Delete")
            try app.press("j", "Enter", "e")  // Done saves what the editor holds
            try app.waitUntil("back on the list") { $0.state["screen"] == "Guides" }
            let units = try folio.sections().flatMap(\.rows).first { $0["name"] as? String == "Cannon Rush" }?["units"] as? [String]
            #expect(units == ["Pylon", "Forge"])
        }

        @Test func aMouseSwipeHighlightsTheRowItReveals() throws {
            let folio = try FolioBinary("planets")
            let app = try folio.launch(waitingFor: "Mercury")
            defer { app.close() }
            let row = try #require(app.lines.firstIndex { $0.hasSuffix("Earth") })
            try app.drag(row: row, from: 40, to: 20)
            try app.waitFor("Delete")
            #expect(app.lines[row].hasPrefix("▸"), "the swiped row is the highlighted one:\n\(app.text)")
            #expect(app.state["swiped"] == app.state["highlight"])
        }
    }
}
