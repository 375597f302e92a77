import FolioTestSupport
import Foundation
import Testing

extension EndToEnd {
    /// Search in every app: `/` opens the field, each keystroke narrows the
    /// table live (case- and diacritic-insensitively), a save from another
    /// process that matches appears under the filter, Enter keeps the filter,
    /// Esc clears it and every row is back.
    @Suite struct SearchEndToEndTests {
        @Test func planetsNarrowByNameKeepingTheHighlightedPlanet() throws {
            let folio = try FolioBinary("planets")
            let app = try folio.launch(waitingFor: "Mercury")
            defer { app.close() }
            try app.press("j", "j", "j", "j", "j")  // Saturn
            try app.waitFor("▸ Saturn")
            let saturn = app.state["highlightID"]
            try app.press("/")
            #expect(app.state["searching"] == "1" && app.state["editingText"] == "1", "\(app.state)")
            try app.type("UR")
            try app.waitUntil("three planets") { $0.state["rowCount"] == "3" }
            #expect(app.text.contains("Mercury") && app.text.contains("Uranus") && !app.text.contains("Earth"), "\(app.text)")
            #expect(app.state["highlightID"] == saturn, "the highlight stays on Saturn: \(app.state)")
            // q and ? are typed, not commands, while the field takes keys.
            try app.type("q")
            try app.waitUntil("no rows") { $0.state["rowCount"] == "0" }
            try app.waitFor("No results for “URq”")
            try app.press("BSpace", "Enter")
            #expect(app.state["searching"] == "0" && app.state["search"] == "UR", "\(app.state)")
            try app.waitFor("Filter: UR")
            try folio.run("add", "Arcturus")
            try folio.run("add", "Vulcan")
            try app.waitFor("Arcturus")
            #expect(!app.text.contains("Vulcan"), "a planet that does not match stays out:\n\(app.text)")
            try app.press("Escape")
            try app.waitFor("Vulcan")
            #expect(app.state["search"] == "" && app.text.contains("Earth") && !app.text.contains("Filter:"), "\(app.text)")
            #expect(app.state["highlightID"] == saturn, "\(app.state)")
            // Esc again (no filter left) is the screen's own: Planets is a root, nothing changes.
            #expect(app.state["screen"] == "Planets")
        }

        @Test func zootasticMatchesNameOrHabitatIgnoringDiacritics() throws {
            let folio = try FolioBinary("zoo")
            let app = try folio.launch(waitingFor: "Mantled Howler", columns: 80, rows: 30)
            defer { app.close() }
            try app.press("/")
            try app.type("AQUÁTIC")
            try app.waitUntil("the manatee alone") { $0.state["rowCount"] == "1" }
            #expect(
                app.text.contains("West Indian Manatee") && app.text.contains("Sirenia") && !app.text.contains("Primates"), "\(app.text)")
            try app.press("Enter")
            try folio.run("add", "--name", "Dugong", "--habitat", "Aquatic Pool", "--order", "Sirenia")
            try folio.run("add", "--name", "Okapi", "--habitat", "Forest", "--order", "Artiodactyla")
            try app.waitFor("Dugong")
            #expect(!app.text.contains("Okapi") && !app.text.contains("Artiodactyla"), "\(app.text)")
            try app.press("/")
            try app.press("BSpace", "BSpace", "BSpace", "BSpace", "BSpace", "BSpace", "BSpace")
            try app.type("howl")
            try app.waitUntil("the howler by name") { $0.state["rowCount"] == "1" }
            #expect(app.text.contains("Mantled Howler") && app.text.contains("Primates"), "\(app.text)")
            try app.press("Escape")
            try app.waitFor("Okapi")
            #expect(app.state["search"] == "" && app.state["searching"] == "0", "\(app.state)")
        }

        @Test func locationsMatchDescriptionOrAddress() throws {
            let folio = try FolioBinary("locations")
            let app = try folio.launch(waitingFor: "Tag Location", columns: 80, rows: 30)
            defer { app.close() }
            try app.press("2")
            try app.waitFor("Infinite Loop")
            try app.press("/")
            try app.type("columbus")
            try app.waitUntil("City Lights by its address") { $0.state["rowCount"] == "1" }
            #expect(app.text.contains("City Lights") && !app.text.contains("Coit Tower"), "\(app.text)")
            try app.press("Enter")
            try folio.run(
                "add", "--description", "Columbus Tower", "--category", "Landmark", "--latitude", "37.79", "--longitude", "-122.40")
            try folio.run(
                "add", "--description", "Ferry Building", "--category", "Landmark", "--latitude", "37.79", "--longitude", "-122.39")
            try app.waitFor("Columbus Tower")
            #expect(!app.text.contains("Ferry Building"), "\(app.text)")
            try app.press("Escape")
            try app.waitFor("Coit Tower")
            #expect(app.state["search"] == "", "\(app.state)")
            // Esc with no filter left does not leave the tab.
            #expect(app.state["tab"] == "1", "\(app.state)")
        }

        @Test func guidesMatchByName() throws {
            let folio = try FolioBinary("guides")
            let app = try folio.launch(waitingFor: "Cannon Rush")
            defer { app.close() }
            try app.press("/")
            try app.type("zerg")
            try app.waitUntil("one guide") { $0.state["rowCount"] == "1" }
            #expect(app.text.contains("Zergling Frenzy") && !app.text.contains("Roach/Hydra"), "names only, not races:\n\(app.text)")
            try app.press("Enter")
            try folio.run("add", "Zerg Rush", "--race", "Zerg")
            try folio.run("add", "Proxy Gates", "--race", "Protoss")
            try app.waitFor("Zerg Rush")
            #expect(!app.text.contains("Proxy Gates"), "\(app.text)")
            // Enter opens what the filter shows; back keeps the filter.
            try app.press("Enter")
            try app.waitUntil("the editor") { $0.state["depth"] == "2" }
            try app.press("Escape")
            try app.waitFor("Filter: zerg")
            try app.press("Escape")
            try app.waitFor("Proxy Gates")
            #expect(app.state["search"] == "", "\(app.state)")
        }
    }
}
