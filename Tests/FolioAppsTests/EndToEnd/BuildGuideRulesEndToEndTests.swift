import FolioTestSupport
import Foundation
import Testing

extension EndToEnd {
    /// Finding 7: BuildGuide's new guide, race changes, names and duplicates.
    @Suite struct BuildGuideRulesEndToEndTests {
        func guide(_ folio: FolioBinary, _ name: String) throws -> [String: Any]? {
            try folio.sections().flatMap(\.rows).first { $0["name"] as? String == name }
        }

        @Test func plusOpensAGuideWithoutARaceSoTheAlertIsReachable() throws {
            let folio = try FolioBinary("guides")
            let app = try folio.launch(waitingFor: "Cannon Rush")
            defer { app.close() }
            try app.press("+")
            try app.waitFor("Guide Details")
            #expect(app.state["screen"] == "Add Guide")
            #expect(app.text.contains("Name  Test Guide"), "\(app.text)")
            #expect(try guide(folio, "Test Guide") == nil, "nothing saved before Done")
            try app.press("G", "Enter")  // Add a Unit
            #expect(app.state["alert"] == "Race not selected")
            try app.press("Enter", "e")  // OK; Done saves it without a race
            try app.waitUntil("back on the list") { $0.state["screen"] == "Guides" }
            #expect(try guide(folio, "Test Guide")?["race"] is NSNull)
            try app.press("+")  // a second one gets its own name
            try app.waitFor("Guide Details")
            #expect(app.text.contains("Name  Test Guide 2"), "\(app.text)")
            try app.press("Escape")
            try app.waitUntil("back on the list") { $0.state["screen"] == "Guides" }
            #expect(try guide(folio, "Test Guide 2") == nil, "Esc saved nothing")
        }

        @Test func changingTheRaceAsksAndRemovesTheOtherRacesUnits() throws {
            let folio = try FolioBinary("guides")
            try folio.run("add-unit", "Cannon Rush", "Pylon")
            try folio.run("add-unit", "Cannon Rush", "Forge")
            let app = try folio.launch(waitingFor: "Cannon Rush")
            defer { app.close() }
            try app.press("Down", "Enter")
            try app.waitFor("Guide Details")
            try app.press("Down", "Enter")  // Race
            try app.waitFor("Select Race")
            try app.press("G", "Enter")  // Zerg
            try app.waitFor("removes its build order: 2 Protoss units")
            try app.press("Enter")  // Cancel is focused
            #expect(app.text.contains("Protoss") && app.text.contains("Pylon"), "\(app.text)")
            try app.press("Enter")
            try app.waitFor("Select Race")
            try app.press("G", "Enter")
            try app.waitFor("Change Race")
            try app.press("Up", "Enter")
            try app.waitFor("Zerg  ›")
            #expect(!app.text.contains("Pylon"), "the other race's units left the build order")
            #expect(try guide(folio, "Cannon Rush")?["race"] as? String == "Protoss", "nothing saved before Done")
            try app.press("e")
            try app.waitUntil("back on the list") { $0.state["screen"] == "Guides" }
            #expect(try guide(folio, "Cannon Rush")?["race"] as? String == "Zerg")
            #expect(try guide(folio, "Cannon Rush")?["units"] as? [String] == [])
        }

        @Test func anEmptyNameIsRefusedAloud() throws {
            let folio = try FolioBinary("guides")
            let app = try folio.launch(waitingFor: "Cannon Rush")
            defer { app.close() }
            try app.press("Down", "Enter")
            try app.waitFor("Guide Details")
            try app.press("Enter", "C-u", "Enter", "e")
            #expect(app.state["alert"] == "Not Saved", "\(app.state)")
            #expect(app.words.contains("Name: must have a visible character"), "\(app.text)")
            #expect(try guide(folio, "Cannon Rush") != nil)
        }

        @Test func duplicateNamesAreRefusedAndAnIdPicksOne() throws {
            let folio = try FolioBinary("guides")
            try folio.run("add", "Dup", "--race", "Zerg")
            try folio.run("add", "Dup", "--race", "Terran")
            let ids = try folio.sections().flatMap(\.rows).filter { $0["name"] as? String == "Dup" }.compactMap { $0["id"] as? String }
            #expect(ids.count == 2)
            let refused = try folio.run("delete", "Dup", expecting: 1)
            #expect(refused.stderr.contains("2 guides are named 'Dup'") && refused.stderr.contains("--id"), "\(refused)")
            try folio.run("add-unit", "Dup", "Drone", expecting: 1)
            try folio.run("add-unit", "--id", ids[0], "Drone")
            try folio.run("delete", "--id", ids[1])
            let left = try folio.sections().flatMap(\.rows).filter { $0["name"] as? String == "Dup" }
            #expect(left.count == 1)
            #expect(left.first?["units"] as? [String] == ["Drone"])

            let zoo = try FolioBinary("zoo")
            try zoo.run("add", "--name", "Twin", "--habitat", "A", "--order", "Primates")
            try zoo.run("add", "--name", "Twin", "--habitat", "B", "--order", "Primates")
            let twins = try zoo.sections().flatMap(\.rows).filter { $0["commonName"] as? String == "Twin" }.compactMap {
                $0["id"] as? String
            }
            let twin = try zoo.run("delete", "--name", "Twin", expecting: 1)
            #expect(twin.stderr.contains("2 animals are named 'Twin'"), "\(twin)")
            try zoo.run("delete", "--id", twins[0])
            #expect(try zoo.sections().flatMap(\.rows).filter { $0["commonName"] as? String == "Twin" }.count == 1)
        }
    }
}
