import FolioTestSupport
import Foundation
import Testing

extension EndToEnd {
    /// Finding 5: `d` is the row's Delete everywhere, and nothing is deleted
    /// without a confirmation: lists ask with a sheet, edit mode's Delete
    /// button confirms; the footer says `d`.
    @Suite struct DeleteRuleEndToEndTests {
        @Test(arguments: [
            ("planets", "Mercury", "permanently delete Mercury?"),
            ("zoo", "West Indian Manatee", "permanently delete Pygmy Fruit-eating Bat?"),
            ("guides", "Cannon Rush", "permanently delete 4-gate pressure?"),
        ])
        func dAsksFirstAndCancelKeeps(app name: String, ready: String, question: String) throws {
            let folio = try FolioBinary(name)
            let app = try folio.launch(waitingFor: ready)
            defer { app.close() }
            #expect(app.lines.last?.contains("d/Del delete") == true, "the footer offers d: \(app.lines.last ?? "")")
            let before = try folio.listed()
            try app.press("d")
            try app.waitFor(question)
            #expect(try folio.listed() == before, "nothing deleted before the answer")
            try app.press("Enter")  // Cancel is focused
            #expect(app.state["alert"] == nil)
            #expect(try folio.listed() == before)
        }

        @Test func locationsListAndEditModeBothConfirm() throws {
            let folio = try FolioBinary("locations")
            let app = try folio.launch(waitingFor: "Tag Location")
            defer { app.close() }
            try app.press("2")
            try app.waitFor("▸ Infinite Loop")
            let before = try folio.listed()
            try app.press("d")
            try app.waitFor("permanently delete “Infinite Loop”?")
            try app.press("Escape")
            #expect(try folio.listed() == before)
            try app.press("e", "d")  // edit mode: the row's Delete button first
            try app.waitFor("✕ Delete")
            #expect(try folio.listed() == before)
            try app.press("d")  // the button: then the sheet
            try app.waitFor("permanently delete “Infinite Loop”?")
            try app.press("Up", "Enter")
            try app.waitForAbsence(of: "Infinite Loop")
        }

        @Test func aGuidesSheetSaysItsBuildOrderGoesToo() throws {
            let folio = try FolioBinary("guides")
            try folio.run("add-unit", "Cannon Rush", "Pylon")
            try folio.run("add-unit", "Cannon Rush", "Forge")
            let app = try folio.launch(waitingFor: "Cannon Rush")
            defer { app.close() }
            try app.press("Down", "d")
            #expect(app.state["alert"] == "Delete Guide")
            #expect(app.words.contains("permanently delete Cannon Rush and its build order of 2 units?"), "\(app.text)")
        }

        @Test func theGuideEditorsDeleteButtonIsTheConfirmation() throws {
            let folio = try FolioBinary("guides")
            try folio.run("add-unit", "Cannon Rush", "Pylon")
            let app = try folio.launch(waitingFor: "Cannon Rush")
            defer { app.close() }
            try app.press("Down", "Enter")
            try app.waitFor("Build Order")
            try app.press("Down", "Down", "d")
            try app.waitFor("✕ Delete")
            #expect(app.lines.last?.contains("Enter/d delete") == true, "\(app.lines.last ?? "")")
            try app.press("d")
            try app.waitForAbsence(of: "Pylon")
            try app.press("e")  // Done
            try app.waitUntil("back on the list") { $0.state["screen"] == "Guides" }
            let units = try folio.sections().flatMap(\.rows).first { $0["name"] as? String == "Cannon Rush" }?["units"] as? [String]
            #expect(units == [])
        }
    }
}
