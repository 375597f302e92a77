import FolioProcessSupport
import FolioTableTestSupport
import Foundation
import Testing

/// The table and terminal layers link no database: a program built on
/// FolioTerminal alone (the probe) needs neither SQLite nor libpq, in its
/// shared libraries or its undefined symbols.
@Suite struct LinkageTests {
    @Test func aProgramOnTheTerminalKitLinksNoDatabase() throws {
        let probe = PseudoTerminal.probe
        try #require(FileManager.default.isExecutableFile(atPath: probe), "folio-terminal-probe not built at \(probe)")
        let libraries = try ProgramRun.output("/usr/bin/ldd", [probe])
        #expect(libraries.contains("libc.so"), "ldd listed nothing useful: \(libraries)")
        for library in ["libsqlite3", "libpq"] {
            #expect(!libraries.contains(library), "the probe links \(library):\n\(libraries)")
        }
        let undefined = try ProgramRun.output("/usr/bin/nm", ["--dynamic", "--undefined-only", probe])
        let database = undefined.split(separator: "\n").filter { $0.contains(" sqlite3_") || $0.contains(" PQ") }
        #expect(database.isEmpty, "the probe needs database symbols: \(database.prefix(5))")
    }
}
