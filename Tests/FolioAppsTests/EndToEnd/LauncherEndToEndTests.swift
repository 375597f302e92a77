import FolioTestSupport
import Foundation
import Testing

extension EndToEnd {
    /// `folio` with no arguments: the launcher.
    @Suite struct LauncherEndToEndTests {
        @Test func enterOpensAnAppEscReturnsAndQQuits() throws {
            let folder = try AppTemporaryDirectory()
            let binary = try AppProcess.folioBinary()
            let term = try AppTerminal([binary.path], width: 90, height: 24, environment: ["XDG_DATA_HOME": folder.url.path])
            defer { term.close() }
            let launcher = try term.waitFor("Planets")
            for title in ["Zootastic", "MyLocations", "BuildGuide"] { #expect(launcher.contains(title)) }
            term.press("Enter")
            try term.waitFor("Team Pluto!")
            term.press("Escape")
            try term.waitFor("BuildGuide")
            term.press("Down", "Enter")
            try term.waitFor("West Indian Manatee")
            term.press("Escape")
            try term.waitForAbsence(of: "West Indian Manatee")
            term.press("q")
            let status = try term.waitForExit()
            #expect(status == 0)
            // The stores were created and seeded where XDG_DATA_HOME says.
            #expect(FileManager.default.fileExists(atPath: folder.path("folio/planets.sqlite")))
            #expect(FileManager.default.fileExists(atPath: folder.path("folio/zoo.sqlite")))
        }

        @Test func helpVersionAndUsageErrorsFromTheBinary() throws {
            let binary = try AppProcess.folioBinary()
            let help = try AppProcess.run(binary, ["--help"])
            #expect(help.status == 0)
            #expect(help.stdout.contains("folio <app> <subcommand>"))
            let version = try AppProcess.run(binary, ["--version"])
            #expect(version.status == 0 && version.stdout.hasPrefix("folio "))
            let bad = try AppProcess.run(binary, ["planets", "explode"])
            #expect(bad.status == 2)
            #expect(bad.stderr.contains("unknown subcommand 'explode'"))
            let folder = try AppTemporaryDirectory()
            try "a file".write(toFile: folder.path("file"), atomically: true, encoding: .utf8)
            let unusable = try AppProcess.run(binary, ["planets", "list", "--store", folder.path("file/p.sqlite")])
            #expect(unusable.status == 1)
            #expect(unusable.stderr.contains("file/p.sqlite"))
        }
    }
}
