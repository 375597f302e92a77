import FolioTestSupport
import Foundation
import Testing

extension EndToEnd {
    /// Zootastic in tmux: sections following other processes' saves live.
    @Suite struct ZootasticEndToEndTests {
        /// Run on both backends: Zootastic's representative workflow.
        @Test(arguments: TestBackend.allCases)
        func renameOrderFromAnotherTerminalMovesRowsAndSectionsLive(_ backend: TestBackend) throws {
            let folio = try FolioBinary("zoo", on: backend)
            let term = try folio.open(waitingFor: "West Indian Manatee")
            defer { term.close() }
            term.press("Down", "Down")  // Mantled Howler (Chiroptera's bat is first)
            try term.waitFor("▸ Mantled Howler")
            try folio.run("rename-order", "Primates", "Apes")
            // "Apes" appears first, "Primates" goes, and the highlight stays on the howler.
            let screen = try term.waitUntil("the Apes section", timeout: 2) { $0.contains(" Apes") && !$0.contains("Primates") }
            #expect(screen.contains("▸ Mantled Howler"))
            let lines = screen.lines
            let apes = try #require(lines.firstIndex { $0.hasPrefix("Apes") })
            let bats = try #require(lines.firstIndex { $0.hasPrefix("Chiroptera") })
            #expect(apes < bats)
            try folio.run("add", "--name", "Aardwolf", "--habitat", "Savanna", "--order", "Carnivora")
            try term.waitFor("Carnivora", timeout: 2)
            #expect(term.screen().contains("▸ Mantled Howler"))
            try folio.run("delete", "--name", "Aardwolf")
            try term.waitForAbsence(of: "Carnivora", timeout: 2)
        }

        @Test func theAddFormSavesAnAnimalIntoItsSection() throws {
            let folio = try FolioBinary("zoo")
            let term = try folio.open(waitingFor: "West Indian Manatee")
            defer { term.close() }
            term.press("+")
            try term.waitFor("Add Animal")
            term.press("Enter")
            term.type("Okapi")
            term.press("Enter", "Down", "Enter")
            term.type("Forest Exhibit")
            term.press("Enter", "Down", "Enter")
            term.type("Artiodactyla")
            term.press("Enter")
            try term.waitFor("Order  Artiodactyla")
            term.press("e")  // Done
            let screen = try term.waitFor("▸ Okapi")
            #expect(screen.contains("Artiodactyla"))
            term.press("q")
            let status = try term.waitForExit()
            #expect(status == 0)
            let section = try #require(try folio.sections().first { $0.name == "Artiodactyla" })
            #expect(section.rows.map { $0["habitat"] as? String } == ["Forest Exhibit"])
        }

        @Test func editingAnAnimalsOrderMovesItToThatSection() throws {
            let folio = try FolioBinary("zoo")
            let term = try folio.open(waitingFor: "West Indian Manatee")
            defer { term.close() }
            term.press("G", "Enter")  // the manatee
            try term.waitFor("Edit Animal")
            term.press("Down", "Down", "Enter")
            for _ in 0..<"Sirenia".count { term.press("BSpace") }
            term.type("Afrotheria")
            term.press("Enter", "e")
            let screen = try term.waitFor("▸ West Indian Manatee")
            #expect(!screen.contains("Sirenia"))
            let lines = screen.lines
            let section = try #require(lines.firstIndex { $0.hasPrefix("Afrotheria") })
            #expect(lines[section + 1].hasPrefix("▸ West Indian Manatee"))
            #expect(try folio.sections().map(\.name) == ["Afrotheria", "Chiroptera", "Primates"])
        }

        @Test func swipeDeletesTheAnimalAndItsEmptySection() throws {
            let folio = try FolioBinary("zoo")
            let term = try folio.open(waitingFor: "West Indian Manatee")
            defer { term.close() }
            term.press("G", "Left")
            try term.waitFor("Delete")
            term.press("Enter")
            try term.waitFor("permanently delete West Indian Manatee?")
            term.press("Up", "Enter")
            try term.waitForAbsence(of: "Sirenia")
            #expect(try folio.sections().map(\.name) == ["Chiroptera", "Primates"])
        }
    }
}
