import FolioTestSupport
import Foundation
import Testing

extension EndToEnd {
    /// MyLocations in tmux: the Tag form, Edit Location, and hostile text.
    @Suite struct MyLocationsEndToEndTests {
        @Test func tagSavesAndShowsTaggedAndTheLocationsTabHasTheRow() throws {
            let folio = try FolioBinary("locations")
            let term = try folio.open(waitingFor: "Tag Location")
            defer { term.close() }
            term.press("Enter")
            term.type("Ferry Building")
            term.press("Enter", "Down", "Enter")  // Category → picker
            try term.waitFor("Choose Category")
            term.press("G", "Enter")  // Park
            try term.waitFor("Park")
            term.press("Down", "Enter", "BSpace")
            term.type("37.7955")
            term.press("Enter", "Down", "Enter", "BSpace")
            term.type("-122.3937")
            term.press("Enter")
            try term.waitFor("-122.3937")
            term.press("e")
            try term.waitFor("Tagged")
            term.press("Tab")
            try term.waitFor("Ferry Building")
            try term.waitFor("Lat: 37.79550000, Long: -122.39370000")
            let park = try #require(try folio.sections().first { $0.name == "Park" })
            #expect(park.rows.contains { $0["description"] as? String == "Ferry Building" })
        }

        @Test func anInvalidLatitudeIsRefusedAndNothingIsSaved() throws {
            let folio = try FolioBinary("locations")
            let term = try folio.open(waitingFor: "Tag Location")
            defer { term.close() }
            let before = try folio.sections().flatMap(\.rows).count
            term.press("Down", "Down", "Enter", "BSpace")
            term.type("95")
            term.press("Enter", "e")
            try term.waitFor("must be between -90")
            #expect(try folio.sections().flatMap(\.rows).count == before)
        }

        @Test func editLocationChangingCategoryMovesTheRowAndShowsUpdated() throws {
            let folio = try FolioBinary("locations")
            let term = try folio.open(waitingFor: "Tag Location")
            defer { term.close() }
            term.press("2")
            try term.waitFor("Coit Tower")
            // Coit Tower is alone in Landmark; move it to Park.
            for _ in 0..<3 { term.press("Down") }
            try term.waitFor("▸ Coit Tower")
            term.press("Enter")
            try term.waitFor("Edit Location")
            term.press("Down", "Enter")
            try term.waitFor("Choose Category")
            term.press("G", "Enter")
            try term.waitFor("Park  ›")
            term.press("e")
            let screen = try term.waitFor("Updated")
            #expect(!screen.contains("Landmark"))
            #expect(screen.contains("▸ Coit Tower"))
            let park = try #require(try folio.sections().first { $0.name == "Park" })
            #expect(park.rows.contains { $0["description"] as? String == "Coit Tower" })
            #expect(try !folio.sections().contains { $0.name == "Landmark" })
        }

        @Test func aDescriptionHoldingAnEscapeSequenceIsShownHarmlessly() throws {
            let folio = try FolioBinary("locations")
            try folio.run(
                "add", "--description", "Bad\u{1B}[2J\u{1B}]0;owned\u{7}Place", "--category", "Club",
                "--latitude", "1", "--longitude", "2")
            let term = try folio.open(waitingFor: "Tag Location")
            defer { term.close() }
            term.press("2")
            let screen = try term.waitFor("Club")
            #expect(screen.contains("Bad^[[2J^[]0;owned^GPlace"))
            #expect(screen.contains("Infinite Loop"))  // the screen was not cleared
            let listed = try folio.run("list")
            #expect(listed.stdout.contains("Bad^[[2J"))
            #expect(!listed.stdout.contains("\u{1B}"))
        }

        /// Run on both backends: MyLocations' representative workflow.
        @Test(arguments: TestBackend.allCases)
        func swipeDeleteAndLiveDeleteFromAnotherTerminal(_ backend: TestBackend) throws {
            let folio = try FolioBinary("locations", on: backend)
            let term = try folio.open(waitingFor: "Tag Location")
            defer { term.close() }
            term.press("2")
            try term.waitFor("City Lights")
            let rows = try folio.sections().flatMap(\.rows)
            let cityLights = try #require(rows.first { $0["description"] as? String == "City Lights" }?["id"] as? String)
            try folio.run("delete", cityLights)
            try term.waitForAbsence(of: "Bookstore", timeout: 2)
            term.press("Home", "Left")
            try term.waitFor("Delete")
            term.press("Enter")  // a delete cannot be undone: the sheet asks, Cancel focused
            try term.waitFor("permanently delete “Infinite Loop”?")
            term.press("Up", "Enter")
            try term.waitForAbsence(of: "Infinite Loop")
            #expect(try !folio.sections().contains { $0.name == "Apple Store" })
        }
    }
}
