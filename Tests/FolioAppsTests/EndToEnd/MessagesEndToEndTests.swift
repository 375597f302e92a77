import FolioTestSupport
import Foundation
import Testing

extension EndToEnd {
    /// Finding 4: a message never claims a success that did not happen.
    /// Errors read as errors, in the form's words, and stay until dismissed;
    /// no message is cut.
    @Suite struct MessagesEndToEndTests {
        /// Reads the screen for `seconds` (the program keeps running).
        func idle(_ app: PtyApp, _ seconds: Double) {
            let end = Date().addingTimeInterval(seconds)
            while Date() < end { app.pump(timeout: 0.05) }
        }

        @Test func aFormErrorNamesTheFieldAndStaysUntilDismissed() throws {
            let folio = try FolioBinary("locations")
            let app = try folio.launch(waitingFor: "Tag Location", columns: 40, rows: 12)
            defer { app.close() }
            let before = try folio.listed()
            try app.press("Down", "Down", "Enter", "BSpace")  // Latitude
            try app.type("abc")
            try app.press("Enter", "e")
            #expect(app.state["alert"] == "Not Saved", "\(app.state)")
            let screen = app.text
            #expect(screen.contains("Latitude"), "\(screen)")
            #expect(screen.contains("not a number"), "\(screen)")
            #expect(!screen.contains("--latitude") && !screen.contains("✓"), "\(screen)")
            idle(app, 2.5)
            #expect(app.state["alert"] == "Not Saved", "the error stays")
            try app.press("Enter")
            #expect(app.state["alert"] == nil)
            #expect(try folio.listed() == before)
        }

        @Test func theLauncherReportsAnUnusableStoreAsAnError() throws {
            let folder = try AppTemporaryDirectory()
            try FileManager.default.createDirectory(atPath: folder.path("folio/planets.sqlite"), withIntermediateDirectories: true)
            let app = try PtyApp(try AppProcess.folioBinary(), [], columns: 60, rows: 20, environment: ["XDG_DATA_HOME": folder.url.path])
            defer { app.close() }
            try app.waitFor("Planets")
            try app.press("Enter")  // the store is opened once no other program is writing it
            try app.waitUntil("the error") { $0.state["alert"] == "Cannot Open Planets" }
            #expect(!app.text.contains("✓"), "\(app.text)")
            #expect(app.words.contains("sqlite"), "the store's own words about the file: \(app.text)")
            try app.press("Enter")
            try app.waitFor("BuildGuide")
        }

        @Test func aSuccessMessageIsWrappedNotCut() throws {
            let folio = try FolioBinary("locations")
            let app = try folio.launch(waitingFor: "Tag Location", columns: 30, rows: 12)
            defer { app.close() }
            try app.press("e")
            try app.waitFor("✓ Tagged")
        }
    }
}
