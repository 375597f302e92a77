import FolioTestSupport
import Foundation
import Testing

extension EndToEnd {
    /// Finding 2: an editor notices when its object is deleted or changed by
    /// another process; it never writes to a deleted object, never crashes.
    @Suite struct EditedObjectEndToEndTests {
        func id(_ folio: FolioBinary, where field: String, is value: String) throws -> String {
            try #require(try folio.sections().flatMap(\.rows).first { $0[field] as? String == value }?["id"] as? String)
        }

        @Test func editLocationWhoseLocationIsDeletedElsewhere() throws {
            let folio = try FolioBinary("locations")
            let app = try folio.launch(waitingFor: "Tag Location")
            defer { app.close() }
            let infiniteLoop = try id(folio, where: "description", is: "Infinite Loop")
            try app.press("2")
            try app.waitFor("▸ Infinite Loop")
            try app.press("Enter")
            try app.waitFor("Edit Location")
            try folio.run("delete", infiniteLoop)
            try app.waitUntil("the deletion noticed") { $0.state["alert"] == "Location Deleted" }
            #expect(app.state["screen"] == "Locations", "back on the list: \(app.state)")
            // Nothing was typed, so nothing is said to be lost.
            #expect(app.state["alertMessage"] == "Another program deleted this location while it was open here.")
            try app.press("Enter")
            try app.press("e")  // Edit on the list: nothing to save, nothing crashes
            #expect(!app.hasExited)
            #expect(!app.text.contains("Infinite Loop"))
        }

        @Test func doneRightAfterAnotherProcessDeletesNeverWrites() throws {
            let folio = try FolioBinary("zoo")
            let app = try folio.launch(waitingFor: "West Indian Manatee")
            defer { app.close() }
            let manatee = try id(folio, where: "commonName", is: "West Indian Manatee")
            try app.press("G", "Enter")
            try app.waitFor("Edit Animal")
            try app.press("Down", "Enter")  // Habitat
            try app.type(" North")
            try app.press("Enter")
            try folio.run("delete", "--id", manatee)
            try app.press("e")  // Done, perhaps before the deletion was heard
            try app.waitUntil("the deletion noticed") { $0.state["alert"] == "Animal Deleted" }
            #expect(app.state["alertMessage"]?.hasSuffix("your changes were not saved.") == true, "\(app.state)")
            #expect(!app.hasExited)
            #expect(try !folio.sections().flatMap(\.rows).contains { ($0["commonName"] as? String) == "West Indian Manatee" })
        }

        @Test func aChangeElsewhereShowsInFieldsTheUserDidNotTouch() throws {
            let folio = try FolioBinary("zoo")
            let app = try folio.launch(waitingFor: "West Indian Manatee")
            defer { app.close() }
            try app.press("G", "Enter")
            try app.waitFor("Edit Animal")
            try folio.run("rename-order", "Sirenia", "Sea Cows")
            try app.waitFor("Sea Cows")
            #expect(app.state["alert"] == nil, "an untouched field just follows")
            // Now the user edits the order, and another program renames it again.
            try app.press("Down", "Down", "Enter", "C-u")
            try app.type("Manatees")
            try app.press("Enter")
            try folio.run("rename-order", "Sea Cows", "Sirenians")
            try app.waitUntil("the conflict pointed out") { $0.state["alert"] == "Changed Elsewhere" }
            try app.press("Enter", "e")
            // Done's save waits for the store off the main actor; the form closes when it has landed.
            try app.waitUntil("Done's save to land") { $0.state["screen"] == "Zootastic" && $0.state["status"] == nil }
            try app.waitFor("Manatees")
            #expect(try folio.sections().map(\.name).contains("Manatees"), "Done saved what the user typed")
        }

        @Test func theGuideEditorLeavesThroughAPickerWhenItsGuideGoes() throws {
            let folio = try FolioBinary("guides")
            let app = try folio.launch(waitingFor: "Cannon Rush")
            defer { app.close() }
            try app.press("Down", "Enter")
            try app.waitFor("Guide Details")
            try app.press("Down", "Enter")  // Race: the picker on top of the editor
            try app.waitFor("Select Race")
            try folio.run("delete", "Cannon Rush")
            try app.waitUntil("the deletion noticed") { $0.state["alert"] == "Guide Deleted" }
            #expect(app.state["screen"] == "Guides", "\(app.state)")
            #expect(!app.text.contains("Cannon Rush"))
        }
    }
}
