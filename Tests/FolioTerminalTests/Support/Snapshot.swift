import FolioTerminal
import Foundation
import Testing

/// Plain-text snapshots of whole screens, kept in `Snapshots/` beside the
/// tests. A missing or different snapshot fails; `FOLIO_RECORD_SNAPSHOTS=1`
/// writes the current screen instead.
enum Snapshot {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Snapshots")

    /// The screen as text, then the rows that use reverse video as masks.
    static func render(_ screen: Screen) -> String {
        var out = screen.text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { "|" + $0 + "|" }.joined(separator: "\n")
        out += "\n-- reverse video --"
        for row in 0..<screen.height {
            let mask = screen.reverseMask(row)
            if mask.contains("#") { out += "\n" + String(format: "%02d", row) + " " + mask }
        }
        return out + "\n"
    }

    static func assert(_ screen: Screen, named name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let file = directory.appendingPathComponent(name + ".txt")
        let actual = render(screen)
        if ProcessInfo.processInfo.environment["FOLIO_RECORD_SNAPSHOTS"] == "1" {
            try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try? actual.write(to: file, atomically: true, encoding: .utf8)
            return
        }
        guard let expected = try? String(contentsOf: file, encoding: .utf8) else {
            Issue.record("snapshot \(name) is missing; record it with FOLIO_RECORD_SNAPSHOTS=1", sourceLocation: sourceLocation)
            return
        }
        #expect(actual == expected, "snapshot \(name) differs:\n\(actual)", sourceLocation: sourceLocation)
    }
}
