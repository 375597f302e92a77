import FolioTestSupport
import Foundation
import Testing

extension EndToEnd {
    /// BuildGuide in tmux: the editor's sections, the alert, clamped reordering, persistence by Done.
    @Suite struct BuildGuideEndToEndTests {
        func units(_ folio: FolioBinary, _ guide: String) throws -> [String]? {
            try folio.sections().flatMap(\.rows).first { $0["name"] as? String == guide }?["units"] as? [String]
        }

        @Test func addingAUnitWithoutARaceShowsTheAlert() throws {
            let folio = try FolioBinary("guides")
            try folio.run("add", "Blank")
            let term = try folio.open(waitingFor: "Cannon Rush")
            defer { term.close() }
            term.press("Down")  // "4-gate pressure" sorts first
            try term.waitFor("▸ Blank")
            term.press("Enter")
            try term.waitFor("Guide Details")
            term.press("G", "Enter")  // Add a Unit
            try term.waitFor("Race not selected")
            try term.waitFor("Please select a race first")
            term.press("Enter")  // OK
            try term.waitForAbsence(of: "Race not selected")
            // Choose a race, then a unit.
            term.press("Up", "Enter")  // the empty build order has no rows: Race is just above
            try term.waitFor("Select Race")
            term.press("Down", "Enter")  // Terran
            try term.waitFor("Terran  ›")
            term.press("G", "Enter")
            try term.waitFor("Select Unit")
            term.press("Down", "Enter")  // Battlecruiser
            try term.waitFor("Battlecruiser")
            try term.waitFor("Build Order")
            #expect(try units(folio, "Blank") == [], "nothing saved before Done")
            term.press("e")  // Done
            _ = try term.waitForAbsence(of: "Guide Details")
            #expect(try units(folio, "Blank") == ["Battlecruiser"])
        }

        /// Run on both backends: BuildGuide's representative workflow.
        @Test(arguments: TestBackend.allCases)
        func reorderingStaysInsideTheBuildOrderAndIsSaved(_ backend: TestBackend) throws {
            let folio = try FolioBinary("guides", on: backend)
            for unit in ["Pylon", "Forge", "Photon Cannon"] { try folio.run("add-unit", "Cannon Rush", unit) }
            let term = try folio.open(waitingFor: "Cannon Rush")
            defer { term.close() }
            term.press("Down", "Enter")
            try term.waitFor("Build Order")
            term.press("Down", "Down")  // Pylon, the first unit
            try term.waitFor("▸ ⊖ Pylon")
            term.press("K")  // up, out of the section: stays first
            try term.waitFor("▸ ⊖ Pylon")
            term.press("J", "J", "J", "J")  // down past the end: stays last
            let screen = try term.waitUntil("Pylon last") { screen in
                let lines = screen.lines
                guard let pylon = lines.firstIndex(where: { $0.hasPrefix("▸ ⊖ Pylon") }) else { return false }
                return lines[pylon + 1] == "Actions"
            }
            #expect(screen.contains("Actions"))
            term.press("d")  // delete control, then its confirmation
            term.press("d")
            try term.waitForAbsence(of: "Pylon")
            #expect(try units(folio, "Cannon Rush") == ["Pylon", "Forge", "Photon Cannon"], "nothing saved before Done")
            term.press("e")  // Done
            _ = try term.waitForAbsence(of: "Guide Details")
            #expect(try units(folio, "Cannon Rush") == ["Forge", "Photon Cannon"])
            term.press("q")
            let status = try term.waitForExit()
            #expect(status == 0)
            // A relaunch shows the saved build order.
            let again = try folio.open(waitingFor: "Cannon Rush")
            defer { again.close() }
            again.press("Down", "Enter")
            let reopened = try again.waitFor("Photon Cannon")
            let lines = reopened.lines
            let forge = try #require(lines.firstIndex { $0.contains("Forge") })
            #expect(lines[forge + 1].contains("Photon Cannon"))
        }

        /// The unit rows still show their delete marker and reorder handle: the editor stays in edit mode.
        func expectEditControls(_ screen: String, _ unit: String, sourceLocation: SourceLocation = #_sourceLocation) {
            let row = screen.lines.first { $0.contains(unit) } ?? ""
            #expect(row.contains("⊖ \(unit)") && row.hasSuffix("≡"), "\(row)", sourceLocation: sourceLocation)
        }

        @Test func renamingTheGuideInTheNameFieldStaysInEditMode() throws {
            let folio = try FolioBinary("guides")
            try folio.run("add-unit", "Zergling Frenzy", "Drone")
            let term = try folio.open(waitingFor: "Zergling Frenzy")
            defer { term.close() }
            term.press("G", "Enter")
            let editor = try term.waitFor("Guide Details")
            expectEditControls(editor, "Drone")
            term.press("Enter")  // the Name row, highlighted first
            for _ in 0..<"Zergling Frenzy".count { term.press("BSpace") }
            term.type("Ling Flood")
            let typing = try term.waitFor("Name  Ling Flood")
            expectEditControls(typing, "Drone")
            term.press("Enter")
            let typed = try term.waitUntil("editing ended") { !$0.contains("cancel edit") }
            expectEditControls(typed, "Drone")
            #expect(try folio.run("list").stdout.contains("Zergling Frenzy"), "nothing saved before Done")
            term.press("e")  // Done
            let list = try term.waitForAbsence(of: "Guide Details")
            #expect(list.contains("Ling Flood") && !list.contains("Zergling Frenzy"), "\(list)")
            let listed = try folio.run("list").stdout
            #expect(listed.contains("Ling Flood") && !listed.contains("Zergling Frenzy"), "\(listed)")
            #expect(try units(folio, "Ling Flood") == ["Drone"])
        }

        /// The editor is a form: nothing is saved before Done, Esc discards.
        @Test func theEditorSavesOnDoneAndEscDiscards() throws {
            let folio = try FolioBinary("guides")
            for unit in ["Pylon", "Forge"] { try folio.run("add-unit", "Cannon Rush", unit) }
            let app = try folio.launch(waitingFor: "Cannon Rush")
            defer { app.close() }
            for done in [false, true] {
                try app.press("Down", "Enter")
                try app.waitUntil("the editor") { $0.state["screen"] == "Edit Guide" }
                try app.press("Enter")  // Name
                try app.type(" II")
                try app.press("Enter", "Down", "Down", "d", "d")  // Pylon: its delete control, then the confirmation
                try app.waitForAbsence(of: "Pylon")
                #expect(try units(folio, "Cannon Rush") == ["Pylon", "Forge"], "nothing saved before Done")
                try app.press(done ? "e" : "Escape")
                try app.waitUntil("back on the list") { $0.state["screen"] == "Guides" }
                try app.press("g")
            }
            #expect(try units(folio, "Cannon Rush") == nil, "renamed by Done")
            #expect(try units(folio, "Cannon Rush II") == ["Forge"], "Esc discarded the first edit, Done saved the second")
        }

        /// Another program's change to the build order the user is editing is
        /// pointed out, never overwritten unseen; Done after that saves the user's.
        @Test func aChangeElsewhereToTheBuildOrderIsPointedOut() throws {
            let folio = try FolioBinary("guides")
            for unit in ["Pylon", "Forge"] { try folio.run("add-unit", "Cannon Rush", unit) }
            let app = try folio.launch(waitingFor: "Cannon Rush")
            defer { app.close() }
            try app.press("Down", "Enter")
            try app.waitFor("Build Order")
            try app.press("Down", "Down", "d", "d")  // Pylon goes from the form's build order
            try app.waitForAbsence(of: "Pylon")
            try folio.run("add-unit", "Cannon Rush", "Gateway")
            try app.waitUntil("the change pointed out") { $0.state["alert"] == "Changed Elsewhere" }
            #expect(app.words.contains("Build Order"), "\(app.text)")
            #expect(try units(folio, "Cannon Rush") == ["Pylon", "Forge", "Gateway"], "nothing overwritten")
            try app.press("Enter", "e")  // OK, then Done: knowingly
            try app.waitUntil("back on the list") { $0.state["screen"] == "Guides" }
            #expect(try units(folio, "Cannon Rush") == ["Forge"])
        }
    }
}
