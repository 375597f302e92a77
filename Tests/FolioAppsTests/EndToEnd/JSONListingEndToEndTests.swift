import FolioTestSupport
import Foundation
import Testing

extension EndToEnd {
    /// `list --json` of the release binary gives every name back exactly,
    /// whatever it holds, and `delete` takes the name the JSON gave.
    @Suite struct JSONListingEndToEndTests {
        /// Names that a terminal would not draw as they are.
        static let names = [
            "line\u{2028}separator", "para\u{2029}graph", "next\u{85}line", "c1\u{9D}\u{9B}31m", "esc\u{1B}]0;title\u{07}",
            "soft\u{AD}hyphen", "bom\u{FEFF}", "rtl\u{202E}olleh", "tag\u{E0041}", "unassigned\u{0378}", "del\u{7F}",
        ]

        @Test(arguments: TestBackend.allCases)
        func namesComeBackExactlyAndDeleteTakesThem(_ backend: TestBackend) throws {
            let planets = try FolioBinary("planets", on: backend)
            for name in Self.names { try planets.run("add", name) }
            let json = try planets.run("list", "--json").stdout
            #expect(CommandLineEndToEndTests.hostile(json).isEmpty, "\(json.debugDescription)")
            #expect(!json.contains("\u{2028}") && !json.contains("<LS>") && !json.contains("<9D>"), "\(json.debugDescription)")
            let listed = Set(try planets.sections().flatMap(\.rows).compactMap { $0["name"] as? String })
            for name in Self.names {
                #expect(listed.contains(name), "\(name.debugDescription) not in \(listed.map(\.debugDescription))")
            }
            for name in listed.intersection(Self.names) { try planets.run("delete", name) }
            let left = Set(try planets.sections().flatMap(\.rows).compactMap { $0["name"] as? String })
            #expect(left.isDisjoint(with: Self.names), "\(left)")
        }
    }
}
