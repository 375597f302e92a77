import FolioAppSupport
import FolioTerminal
import FolioTestSupport
import Foundation
import MyLocationsApp
import Testing

/// Finding 1, where a person types a date: `locations add --date` and the
/// Tag form refuse an impossible one naming the option or field, write
/// nothing, and keep a fraction of a second (shown as given).
@MainActor
@Suite struct ImpossibleDateInputTests {
    @Test func theCommandLineRefusesItAndWritesNothing() throws {
        let runner = try CommandRunner()
        let before = try runner.sections("locations").flatMap(\.rows).count
        for (text, reason) in [
            ("2024-02-30T00:00:00Z", "day must be 01 to 29"), ("2025-03-14T24:00:00Z", "hour"),
            ("2025-03-14T10:20:60Z", "second"), ("2025-03-14T10:20:00.1234Z", "millisecond"),
        ] {
            let result = runner.run(
                "locations", "add", "--description", "x", "--category", "Bar",
                "--latitude", "0", "--longitude", "0", "--date", text)
            #expect(result.status == .exit(.failure), "\(text)")
            #expect(result.err.contains("--date") && result.err.contains(reason), "\(result.err)")
        }
        #expect(try runner.sections("locations").flatMap(\.rows).count == before)
        let kept = runner.run(
            "locations", "add", "--description", "Pier", "--category", "Bar",
            "--latitude", "0", "--longitude", "0", "--date", "2025-03-14T10:20:00.123Z")
        #expect(kept.status == .exit(.success))
        let row = try runner.sections("locations").flatMap(\.rows).first { $0["description"] as? String == "Pier" }
        #expect(row?["date"] as? String == "2025-03-14T10:20:00.123Z", "the fraction is kept and shown")
    }

    @Test func theTagFormRefusesItNamingTheField() throws {
        let folder = try AppTemporaryDirectory()
        let driver = TerminalRecordingDriver(columns: 90, rows: 30)
        let app = Application(
            root: try MyLocationsApp.makeScreen(storeURL: URL(fileURLWithPath: folder.path("l.sqlite"))),
            driver: driver)
        app.render()
        app.send("Down Down Down Down Down Enter C-u '2024-02-30T00:00:00Z' Enter e")
        #expect(app.presentedAlert?.title == "Not Saved", "\(driver.screen.text)")
        #expect(app.presentedAlert?.message?.contains("Date: day must be 01 to 29 in February 2024") == true, "\(driver.screen.text)")
    }
}
