import FolioTestSupport
import Foundation
import Testing

extension EndToEnd {
    /// The real `folio` binary in tmux: the seed's swipe-to-delete workflow.
    @Suite struct PlanetsEndToEndTests {
        let folder: AppTemporaryDirectory
        let binary: URL
        let store: String

        init() throws {
            folder = try AppTemporaryDirectory()
            binary = try AppProcess.folioBinary()
            store = folder.path("planets.sqlite")
        }

        func list() throws -> [String] {
            let result = try AppProcess.run(binary, ["planets", "list", "--store", store])
            #expect(result.status == 0, "\(result)")
            return result.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        }

        func open() throws -> AppTerminal {
            let term = try AppTerminal([binary.path, "planets", "--store", store], width: 80, height: 24)
            try term.waitFor("Mercury")
            return term
        }

        @Test func swipeDeleteAsksAndCancelKeepsThePlanet() throws {
            let term = try open()
            defer { term.close() }
            term.press("Down", "Down", "Down", "Left")
            try term.waitFor("Delete")
            term.press("Enter")
            try term.waitFor("Are you sure you want to permanently delete Mars?")
            try term.waitFor("Delete Planet")
            term.press("Enter")  // Cancel is focused first
            try term.waitForAbsence(of: "Delete Planet")
            term.press("q")
            let status = try term.waitForExit()
            #expect(status == 0)
            #expect(try list().contains("Mars"))
        }

        /// Run on both backends: Planets' representative workflow.
        @Test(arguments: TestBackend.allCases)
        func swipeDeleteConfirmedRemovesTheRowAndTheStoreFollows(_ backend: TestBackend) throws {
            let folio = try FolioBinary("planets", on: backend)
            let term = try folio.open(waitingFor: "Mercury", width: 80, height: 24)
            defer { term.close() }
            term.press("Down", "Down", "Down", "Left", "Enter")
            try term.waitFor("Are you sure you want to permanently delete Mars?")
            term.press("Up", "Enter")  // to Delete
            try term.waitForAbsence(of: "Mars")
            term.press("q")
            let status = try term.waitForExit()
            #expect(status == 0)
            #expect(try folio.listed() == ["Mercury", "Venus", "Earth", "Jupiter", "Saturn", "Uranus", "Neptune", "Team Pluto!"])
        }

        @Test func editModeDeleteGoesThroughTheSameConfirmation() throws {
            let term = try open()
            defer { term.close() }
            term.press("e")
            try term.waitFor("[Done]")
            term.press("Down", "d")  // Venus: its delete control, then the row's Delete button
            term.press("d")
            try term.waitFor("Are you sure you want to permanently delete Venus?")
            term.press("Escape")  // Esc is the sheet's Cancel
            try term.waitForAbsence(of: "Delete Planet")
            #expect(try list().contains("Venus"))
            term.press("d", "d")
            try term.waitFor("Are you sure you want to permanently delete Venus?")
            term.press("Up", "Enter")
            try term.waitForAbsence(of: "Venus")
            #expect(try !list().contains("Venus"))
        }

        @Test func reorderInEditModeIsSavedAndShownAfterRelaunch() throws {
            let term = try open()
            defer { term.close() }
            term.press("e")
            try term.waitFor("[Done]")
            term.press("J", "J")  // Mercury down two rows
            term.press("e")
            try term.waitFor("[Edit]")
            term.press("q")
            let status = try term.waitForExit()
            #expect(status == 0)
            #expect(Array(try list().prefix(3)) == ["Venus", "Earth", "Mercury"])
            let again = try open()
            defer { again.close() }
            let screen = try again.waitFor("Mercury")
            let rows = screen.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            let venus = try #require(rows.firstIndex { $0.hasSuffix("Venus") })
            #expect(rows[venus + 2].hasSuffix("Mercury"))
        }

        @Test func anotherProcessesChangesShowLiveAndTheHighlightStays() throws {
            let term = try open()
            defer { term.close() }
            term.press("Down", "Down")  // Earth
            try term.waitFor("▸ Earth")
            let deleted = try AppProcess.run(binary, ["planets", "delete", "Mercury", "--store", store])
            #expect(deleted.status == 0, "\(deleted)")
            let saved = Date()
            try term.waitForAbsence(of: "Mercury", timeout: 2)
            // The figure includes the harness's own polling (50 ms, two captures).
            print("live update shown \(Int(Date().timeIntervalSince(saved) * 1000)) ms after the other process's save")
            #expect(term.screen().contains("▸ Earth"))
            let added = try AppProcess.run(binary, ["planets", "add", "Vulcan", "--store", store])
            #expect(added.status == 0, "\(added)")
            try term.waitFor("Vulcan", timeout: 2)
            #expect(term.screen().contains("▸ Earth"))
        }
    }
}
