import FolioTestSupport
import Foundation
import Testing

extension EndToEnd {
    /// BuildGuide in tmux: the editor's sections, the alert, clamped reordering, persistence.
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
            #expect(try units(folio, "Cannon Rush") == ["Forge", "Photon Cannon", "Pylon"])
            term.press("d")  // delete control, then its confirmation
            term.press("d")
            try term.waitForAbsence(of: "Pylon")
            #expect(try units(folio, "Cannon Rush") == ["Forge", "Photon Cannon"])
            term.press("Escape", "q")
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
            let done = try term.waitUntil("the bar's title renamed") { $0.lines.first?.contains("Ling Flood") == true }
            expectEditControls(done, "Drone")
            term.press("Escape")
            let list = try term.waitFor("Guides")
            #expect(list.contains("Ling Flood") && !list.contains("Zergling Frenzy"))
            let listed = try folio.run("list").stdout
            #expect(listed.contains("Ling Flood") && !listed.contains("Zergling Frenzy"), "\(listed)")
            #expect(try units(folio, "Ling Flood") == ["Drone"])
        }
    }
}
