import FolioTestSupport
import Foundation
import Testing

extension EndToEnd {
    /// Finding 11 on screen: the section index from the keyboard, K/J outside
    /// edit mode, the launcher's column.
    @Suite struct SmallerEndToEndTests {
        @Test func bracketsJumpBetweenSectionsAndHelpSaysSo() throws {
            let folio = try FolioBinary("zoo")
            let app = try folio.launch(waitingFor: "West Indian Manatee", columns: 120, rows: 30)
            defer { app.close() }
            // Where the section index shows, its keyboard way is in the bar.
            #expect(app.lines.last?.contains("[ ] previous / next section") == true, "\(app.lines.last ?? "")")
            try app.press("]")
            #expect(app.state["highlight"] == "1.0", "\(app.state)")
            try app.press("]", "]")
            #expect(app.state["highlight"] == "2.0", "the last section stays")
            try app.press("[")
            #expect(app.state["highlight"] == "1.0")
            try app.press("?")
            try app.waitFor("previous / next section")
        }

        @Test func reorderKeysOutsideEditModeSayHow() throws {
            let folio = try FolioBinary("planets")
            let app = try folio.launch(waitingFor: "Mercury")
            defer { app.close() }
            let before = try folio.listed()
            try app.press("J")
            #expect(app.lines.last?.contains("press e") == true, "\(app.lines.last ?? "")")
            #expect(try folio.listed() == before)
            try app.press("j")
            #expect(app.lines.last?.contains("press e") == false, "the note goes with the next key")
        }

        @Test func theLaunchersSummariesFormAColumn() throws {
            let folder = try AppTemporaryDirectory()
            let app = try PtyApp(try AppProcess.folioBinary(), [], columns: 100, rows: 20, environment: ["XDG_DATA_HOME": folder.url.path])
            defer { app.close() }
            try app.waitFor("BuildGuide")
            let starts = ["the planets", "animals by", "tag places", "build guides"].compactMap { summary in
                app.lines.first { $0.contains(summary) }.flatMap { line in
                    line.range(of: summary).map { line.distance(from: line.startIndex, to: $0.lowerBound) }
                }
            }
            #expect(starts.count == 4 && Set(starts).count == 1, "\(starts)\n\(app.text)")
        }
    }
}
