import FolioTestSupport
import Foundation
import Testing

extension EndToEnd {
    /// Finding 9: typing and pasting are linear, and a field has a limit it says.
    @Suite struct TypingEndToEndTests {
        @Test func longTypingAndAMegabytePasteFinishAndStopAtTheLimit() throws {
            let folio = try FolioBinary("locations")
            let app = try folio.launch(waitingFor: "Tag Location", columns: 100, rows: 20)
            defer { app.close() }
            try app.press("Enter")
            var times: [String] = []
            for count in [10_000, 40_000] {
                let start = Date()
                try app.type(String(repeating: "x", count: count), timeout: 120)
                times.append("\(count) typed: \(Int(Date().timeIntervalSince(start) * 1000)) ms")
                #expect(app.lines.last?.contains("at most 500 characters") == true, "\(app.lines.last ?? "")")
                try app.press("C-u")
            }
            let start = Date()
            try app.paste(String(repeating: "y", count: 1_000_000), timeout: 120)
            times.append("1 MB pasted: \(Int(Date().timeIntervalSince(start) * 1000)) ms")
            print("typing into a field: " + times.joined(separator: ", "))
            #expect(app.lines.last?.contains("at most 500 characters") == true)
            try app.press("Enter", "e")
            try app.waitFor("Tagged")
            let tagged = try folio.sections().flatMap(\.rows).compactMap { $0["description"] as? String }
            #expect(tagged.contains(String(repeating: "y", count: 500)))
        }
    }
}
