import FolioTestSupport
import Foundation
import Testing

extension EndToEnd {
    /// Finding 6: the footer and `?` offer only keys that act, once each.
    @Suite struct HintsEndToEndTests {
        /// The keys the footer names (bold words before their action).
        func footer(_ app: PtyApp) -> String { app.lines.last ?? "" }

        @Test func onlyOneEscWhileActionsAreRevealedInTheLauncher() throws {
            let folder = try AppTemporaryDirectory()
            let app = try PtyApp(try AppProcess.folioBinary(), [], columns: 120, rows: 30, environment: ["XDG_DATA_HOME": folder.url.path])
            defer { app.close() }
            try app.waitFor("MyLocations")
            try app.press("j", "j", "Enter")
            try app.waitFor("Tag Location")
            try app.press("2", "h")
            try app.waitFor("Delete")
            #expect(footer(app).contains("Esc hide actions"), "\(footer(app))")
            #expect(!footer(app).contains("Esc apps"), "\(footer(app))")
            try app.press("Escape")
            #expect(footer(app).contains("Esc apps"), "\(footer(app))")
        }

        @Test func whileTypingOnlyEditingKeysAreOffered() throws {
            let folio = try FolioBinary("locations")
            let app = try folio.launch(waitingFor: "Tag Location", columns: 120, rows: 30)
            defer { app.close() }
            try app.press("Enter")
            #expect(app.state["editingText"] == "1")
            let bar = footer(app)
            #expect(bar.contains("Enter done") && bar.contains("Esc cancel edit"), "\(bar)")
            for offered in ["e done", "q quit", "? help", "Tab/1-2"] { #expect(!bar.contains(offered), "\(offered) in \(bar)") }
            try app.type("eq?")
            try app.press("Enter")
            #expect(app.text.contains("eq?"), "e, q and ? were typed")
        }

        /// An edit form's Esc discards what it holds: its bar and footer say
        /// Cancel, never "back", in every app's forms.
        @Test(arguments: [
            ("locations", "Tag Location", ["2", "Enter"], "Edit Location"),
            ("zoo", "West Indian Manatee", ["+"], "Add Animal"),
            ("guides", "Cannon Rush", ["Down", "Enter"], "Edit Guide"),
        ])
        func aFormsEscSaysCancel(app name: String, ready: String, keys: [String], form: String) throws {
            let folio = try FolioBinary(name)
            let app = try folio.launch(waitingFor: ready, columns: 120, rows: 30)
            defer { app.close() }
            for key in keys { try app.press(key) }
            try app.waitUntil("the form") { $0.state["screen"] == form }
            #expect(app.lines.first?.hasPrefix("[Cancel]") == true, "\(app.lines.first ?? "")")
            #expect(footer(app).contains("Esc cancel") && !footer(app).contains("Esc back"), "\(footer(app))")
            try app.press("Escape")
            try app.waitUntil("the form left") { $0.state["screen"] != form }
        }

        @Test func enterIsOfferedOnlyWhereItActs() throws {
            let planets = try FolioBinary("planets")
            let list = try planets.launch(waitingFor: "Mercury")
            defer { list.close() }
            #expect(!footer(list).contains("Enter"), "selecting a planet does nothing: \(footer(list))")
            try list.press("e")
            #expect(!footer(list).contains("Enter"), "\(footer(list))")

            let guides = try FolioBinary("guides")
            let editor = try guides.launch(waitingFor: "Cannon Rush", columns: 120, rows: 30)
            defer { editor.close() }
            try editor.press("Down", "Enter")
            try editor.waitFor("Guide Details")
            #expect(footer(editor).components(separatedBy: "Enter ").count == 2, "one Enter: \(footer(editor))")
            #expect(footer(editor).contains("Enter edit text"), "\(footer(editor))")
            try editor.press("Down")
            #expect(footer(editor).contains("Enter choose the race"), "\(footer(editor))")
        }

        @Test func helpAtFortyByTwelveReachesEveryKeyOverADimmedScreen() throws {
            let folio = try FolioBinary("planets")
            let app = try folio.launch(waitingFor: "Mercury", columns: 40, rows: 12)
            defer { app.close() }
            try app.press("?")
            #expect(app.state["help"] == "1")
            var seen = Set(app.lines)
            for _ in 0..<20 where !seen.contains(where: { $0.contains("Ctrl-C") }) {
                try app.press("j")
                seen.formUnion(app.lines)
            }
            #expect(seen.contains { $0.contains(" q ") && $0.contains("quit") }, "q quit was reachable")
            #expect(seen.contains { $0.contains("Ctrl-C") })
            #expect(app.state["help"] == "1", "scrolling keeps help open")
            try app.press("x")
            #expect(app.state["help"] == "0")
            // Where the list shows around help, it is dimmed, as under an alert.
            try app.resize(columns: 80, rows: 24)
            try app.press("?")
            let title = try #require(app.emulator.screen.cells.firstIndex { $0.text == "P" })
            #expect(app.emulator.screen.cells[title].style.attributes.contains(.dim))
        }
    }
}
