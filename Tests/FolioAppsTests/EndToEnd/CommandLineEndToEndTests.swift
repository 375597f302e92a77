import BuildGuideApp
import FolioAppSupport
import FolioTestSupport
import Foundation
import MyLocationsApp
import PlanetsApp
import Testing
import ZootasticApp

extension EndToEnd {
    /// Findings 8 and 11 on the command line of the release binary: hostile
    /// text never reaches the terminal raw, and the small refusals are right.
    @Suite struct CommandLineEndToEndTests {
        /// Bytes that would change the terminal: C0 controls but newline, DEL, C1, and bidi overrides.
        static func hostile(_ text: String) -> [String] {
            text.unicodeScalars.filter { scalar in
                (scalar.value < 0x20 && scalar != "\n") || (0x7F...0x9F).contains(scalar.value)
                    || (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
            }.map { String(format: "U+%04X", $0.value) }
        }

        func run(_ arguments: String...) throws -> AppProcess.Result {
            try AppProcess.run(try AppProcess.folioBinary(), arguments)
        }

        @Test func hostileNamesInErrorsAreShownVisibly() throws {
            let folder = try AppTemporaryDirectory()
            let store = folder.path("planets.sqlite")
            let title = try run("planets", "delete", "NoSuch\u{1B}]0;pwned\u{07}", "--store", store)
            #expect(title.status == 1)
            #expect(Self.hostile(title.stderr).isEmpty, "\(title.stderr.debugDescription)")
            #expect(title.stderr.contains("^[]0;pwned^G"))
            let clipboard = "\u{1B}]52;c;aGVsbG8=\u{07}"
            #expect(try run("planets", "add", clipboard, "--store", store).status == 0)
            let again = try run("planets", "add", clipboard, "--store", store)
            #expect(again.status == 1)
            #expect(Self.hostile(again.stderr).isEmpty, "\(again.stderr.debugDescription)")
            let app = try run("\u{1B}[2Jplanets")
            #expect(app.status == 2)
            #expect(Self.hostile(app.stderr).isEmpty, "\(app.stderr.debugDescription)")
            let option = try run("planets", "list", "--\u{1B}[31mcolour", "--store", store)
            #expect(option.status == 2)
            #expect(Self.hostile(option.stderr).isEmpty, "\(option.stderr.debugDescription)")
            let listed = try run("planets", "list", "--store", store)
            #expect(Self.hostile(listed.stdout).isEmpty, "\(listed.stdout.debugDescription)")
            #expect(listed.stdout.contains("^[]52;c;aGVsbG8=^G"))
        }

        @Test func bidiOverridesAreShownVisiblyInListAndEscapedInJSON() throws {
            let folder = try AppTemporaryDirectory()
            let store = folder.path("planets.sqlite")
            #expect(try run("planets", "add", "abc\u{202E}fed", "--store", store).status == 0)
            let listed = try run("planets", "list", "--store", store)
            #expect(Self.hostile(listed.stdout).isEmpty, "\(listed.stdout.debugDescription)")
            #expect(listed.stdout.contains("abc<U+202E>fed"))
            let json = try run("planets", "list", "--json", "--store", store)
            #expect(Self.hostile(json.stdout).isEmpty, "\(json.stdout.debugDescription)")
            let decoded = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]]
            let names = decoded?.first?["rows"] as? [[String: Any]]
            #expect(names?.contains { $0["name"] as? String == "abc\u{202E}fed" } == true, "JSON keeps the data exact")
        }

        @Test func namesWithoutAVisibleCharacterAreRefused() throws {
            let folder = try AppTemporaryDirectory()
            for app in ["planets", "guides"] {
                let store = folder.path("\(app).sqlite")
                for name in ["\n", "\r", "\u{200D}", " \t ", "\u{200B}\u{FEFF}"] {
                    let added = try run(app, "add", name, "--store", store)
                    #expect(added.status == 1, "\(app) add \(name.debugDescription): \(added)")
                    #expect(added.stderr.contains("must have a visible character"), "\(added)")
                }
            }
            let zoo = try run(
                "zoo", "add", "--name", "\u{200D}", "--habitat", "x", "--order", "Primates",
                "--store", folder.path("zoo.sqlite"))
            #expect(zoo.status == 1, "\(zoo)")
        }

        @Test func locationIdsAndCoordinatesAreReadStrictly() throws {
            let folder = try AppTemporaryDirectory()
            let store = folder.path("locations.sqlite")
            let negative = try run("locations", "delete", "-5", "--store", store)
            #expect(negative.status == 1, "\(negative)")
            #expect(negative.stderr.contains("not a location id"), "\(negative)")
            let missing = try run("locations", "delete", "9999", "--store", store)
            #expect(missing.status == 1)
            #expect(missing.stderr.contains("no location with id 9999"), "\(missing)")
            for latitude in ["0x10", "1e1", "inf", "nan", "+-1", "1_0"] {
                let added = try run(
                    "locations", "add", "--description", "x", "--category", "Bar",
                    "--latitude", latitude, "--longitude", "0", "--store", store)
                #expect(added.status == 1, "latitude \(latitude): \(added)")
            }
            for latitude in ["-12.5", "+12.5", "12", " 12.25 ", "-0"] {
                let added = try run(
                    "locations", "add", "--description", "x", "--category", "Bar",
                    "--latitude", latitude, "--longitude", "0", "--store", store)
                #expect(added.status == 0, "latitude \(latitude): \(added)")
            }
        }

        @MainActor
        @Test func helpFitsEightyColumnsWithDescriptionsInAColumn() async throws {
            let apps: [any FolioApp.Type] = [PlanetsApp.self, ZootasticApp.self, MyLocationsApp.self, BuildGuideApp.self]
            var pages: [([String], [HelpEntry])] = [(["--help"], apps.map { HelpEntry($0.command, $0.summary) } + HelpText.commonKeys)]
            for app in apps { pages.append(([app.command, "--help"], app.subcommands + app.keys + HelpText.commonKeys)) }
            for (arguments, entries) in pages {
                let help = try await BlockingWork.run { try AppProcess.run(try AppProcess.folioBinary(), arguments) }
                #expect(help.status == 0)
                let lines = help.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                for line in lines {
                    #expect(line.count <= 80, "\(arguments): \(line.count) columns: \(line)")
                }
                // Every description starts in the page's description column,
                // after at least two spaces (on the usage's line or the next).
                var columns: Set<Int> = []
                for entry in entries {
                    let start = String(entry.meaning.prefix(20))
                    guard let line = lines.first(where: { $0.contains(start) }), let range = line.range(of: start) else {
                        Issue.record("\(arguments): no line for \(entry.meaning)")
                        continue
                    }
                    let column = line.distance(from: line.startIndex, to: range.lowerBound)
                    #expect(line[..<range.lowerBound].hasSuffix("  "), "\(arguments): \(line)")
                    columns.insert(column)
                }
                #expect(columns.count == 1, "\(arguments): descriptions start at columns \(columns.sorted())")
            }
        }

        @Test func anEmptyStoresListPrintsNothing() throws {
            let folder = try AppTemporaryDirectory()
            let store = folder.path("planets.sqlite")
            let listed = try run("planets", "list", "--store", store)
            for line in listed.stdout.split(separator: "\n") {
                #expect(try run("planets", "delete", String(line.trimmingCharacters(in: .whitespaces)), "--store", store).status == 0)
            }
            let empty = try run("planets", "list", "--store", store)
            #expect(empty.status == 0)
            #expect(empty.stdout == "", "\(empty.stdout.debugDescription)")
        }
    }
}
