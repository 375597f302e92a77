import FolioTestSupport
import Foundation
import Testing

extension EndToEnd {
    /// `import` and `export` of the release binary: every app's rows come
    /// back as they were, in JSON and CSV, on both backends; a bad row is
    /// named and changes nothing; a progress bar only on a terminal.
    @Suite struct ImportExportEndToEndTests {
        static let apps = ["planets", "zoo", "locations", "guides"]

        /// `list --json` without the ids, which the store assigns anew.
        static func withoutIDs(_ json: String) -> String {
            json.replacingOccurrences(of: #""id":"[0-9]+","#, with: "", options: .regularExpression)
        }

        func file(_ folder: AppTemporaryDirectory, _ name: String, _ text: String) throws -> String {
            let path = folder.path(name)
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }

        @Test(arguments: TestBackend.allCases)
        func exportThenImportGivesTheSameListInEveryApp(_ backend: TestBackend) throws {
            for app in Self.apps {
                let source = try FolioBinary(app, on: backend)
                if app == "planets" { try source.run("add", "Alpha, \"Prime\"") }
                if app == "zoo" {
                    try source.run("add", "--name", "Okapi", "--habitat", "Forest,\n\"north\" side", "--order", "Artiodactyla")
                }
                let listed = Self.withoutIDs(try source.run("list", "--json").stdout)
                for format in ["json", "csv"] {
                    let exported = source.folder.path("\(app).\(format)")
                    try source.run("export", exported)
                    let target = try FolioBinary(app, on: backend)
                    let imported = try target.run("import", exported)
                    #expect(imported.stderr.isEmpty, "\(app) \(format): \(imported)")
                    #expect(Self.withoutIDs(try target.run("list", "--json").stdout) == listed, "\(app) \(format)")
                    // And to standard output: the same bytes as the file.
                    let file = try String(contentsOfFile: exported, encoding: .utf8)
                    #expect(try source.run("export", "--format", format).stdout == file, "\(app) \(format)")
                }
            }
        }

        @Test(arguments: TestBackend.allCases)
        func aBadRowIsNamedByLineAndFieldAndNothingIsImported(_ backend: TestBackend) throws {
            let planets = try FolioBinary("planets", on: backend)
            let before = try planets.run("list", "--json").stdout
            var csv = "name,position\n"
            for i in 0..<2_000 { csv += i == 1_499 ? "P\(i),x\u{1B}[2J\n" : "P\(i),\(i + 20)\n" }
            let bad = try planets.run("import", try file(planets.folder, "bad.csv", csv), expecting: 1)
            #expect(bad.stderr.contains("line 1501, field 'position'") && bad.stderr.contains("nothing was imported"), "\(bad)")
            #expect(CommandLineEndToEndTests.hostile(bad.stderr).isEmpty && bad.stderr.contains("x^[[2J"), "\(bad.stderr.debugDescription)")
            #expect(try planets.run("list", "--json").stdout == before)

            // A duplicate late in the file: the write itself is refused, still all or nothing.
            csv = (0..<2_000).map { "P\($0),\($0 + 20)" }.joined(separator: "\n") + "\nP7,9\n"
            let twice = try planets.run("import", try file(planets.folder, "twice.csv", "name,position\n" + csv), expecting: 1)
            #expect(twice.stderr.contains("line 2002, field 'name'") && twice.stderr.contains("line 9"), "\(twice)")
            #expect(try planets.run("list", "--json").stdout == before)

            // JSON: a row without its name, and an app that saves objects (zoo).
            let json = "[{\"name\":\"\",\"rows\":[\n{\"name\":\"Vulcan\"},\n{\"position\":3}\n]}]\n"
            let missing = try planets.run("import", try file(planets.folder, "bad.json", json), expecting: 1)
            #expect(missing.stderr.contains("line 3, field 'name': is missing"), "\(missing)")
            #expect(try planets.run("list", "--json").stdout == before)
            let zoo = try FolioBinary("zoo", on: backend)
            let zooBefore = try zoo.run("list", "--json").stdout
            let rows = (0..<300).map { "Animal \($0),Den,Carnivora,Felidae,\($0 == 250 ? "\"[\"\"Zoo\"\", 5]\"" : "[]")" }
            let zooBad = try zoo.run(
                "import", try file(zoo.folder, "zoo.csv", "commonName,habitat,order,family,zoos\n" + rows.joined(separator: "\n")),
                expecting: 1)
            #expect(zooBad.stderr.contains("line 252, field 'zoos'"), "\(zooBad)")
            #expect(try zoo.run("list", "--json").stdout == zooBefore)
        }

        @Test func aFailedImportMakesNoStore() throws {
            let folder = try AppTemporaryDirectory()
            let binary = try AppProcess.folioBinary()
            for (app, text) in [
                ("planets", "name\nVulcan\nVulcan\n"), ("planets", "name,position\nVulcan,x\n"),
                ("zoo", "commonName,order\nOkapi,\n"), ("locations", "category\nNowhere\n"),
            ] {
                let file = try self.file(folder, "\(app).csv", text), store = folder.path("new-\(app).sqlite")
                let run = try AppProcess.run(binary, [app, "import", file, "--store", store])
                #expect(run.status == 1 && run.stderr.contains("line "), "\(app) \(text.debugDescription): \(run)")
                #expect(!FileManager.default.fileExists(atPath: store), "\(app) \(text.debugDescription): a store was made")
            }
        }

        @Test func csvIsQuotedAsRFC4180AndReadBackExactly() throws {
            let planets = try FolioBinary("planets")
            let csv = "name,position\r\n\"Comma, \"\"Quoted\"\"\",1\r\n\"Two\nLines\",2\r\nPlain,3\r\n"
            try planets.run("import", try file(planets.folder, "q.csv", csv))
            let names = try planets.sections().flatMap(\.rows).compactMap { $0["name"] as? String }
            #expect(names.contains("Comma, \"Quoted\"") && names.contains("Two\nLines") && names.contains("Plain"), "\(names)")
            let exported = try planets.run("export", "--format", "csv").stdout
            #expect(exported == "id,name,position\n1,\"Comma, \"\"Quoted\"\"\",1\n2,\"Two\nLines\",2\n3,Plain,3\n", "\(exported)")
            let unclosed = try planets.run("import", try file(planets.folder, "u.csv", "name\nfine\n\"open\n"), expecting: 1)
            #expect(unclosed.stderr.contains("line 3") && unclosed.stderr.contains("not closed"), "\(unclosed)")
        }

        @Test func aProgressBarOnlyOnATerminal() throws {
            let planets = try FolioBinary("planets")
            let csv = "name\n" + (0..<50_000).map { "P\($0)" }.joined(separator: "\n") + "\n"
            let path = try file(planets.folder, "many.csv", csv)
            let piped = try planets.run("import", path)
            #expect(piped.stderr.isEmpty, "\(piped.stderr.debugDescription)")
            #expect(piped.stdout == "Imported 50000 planets.\n")
            // On a terminal (script(1) gives it one): the bar, then erased.
            let other = planets.folder.path("tty.sqlite")
            let command = [planets.binary.path, "planets", "import", path, "--store", other].map { "'\($0)'" }.joined(separator: " ")
            let tty = try AppProcess.run(URL(fileURLWithPath: "/usr/bin/script"), ["-qefc", command, "/dev/null"])
            #expect(tty.status == 0, "\(tty)")
            #expect(
                tty.stdout.contains("Importing [") && tty.stdout.contains("100% of 50000 rows"),
                "\(tty.stdout.suffix(300).debugDescription)")
        }

        @Test func exportNeverOverwritesWithoutForce() throws {
            let planets = try FolioBinary("planets")
            let path = try file(planets.folder, "keep.json", "precious")
            let refused = try planets.run("export", path, expecting: 1)
            #expect(refused.stderr.contains("already exists; add --force"), "\(refused)")
            #expect(try String(contentsOfFile: path, encoding: .utf8) == "precious")
            try planets.run("export", path, "--force")
            #expect(try String(contentsOfFile: path, encoding: .utf8).contains("\"Mercury\""))
            let unknown = try planets.run("export", planets.folder.path("x.txt"), expecting: 2)
            #expect(unknown.stderr.contains("--format json or --format csv"), "\(unknown)")
        }
    }
}
