import FolioAppSupport
import FolioTestSupport
import Foundation
import Testing

/// Finding 7 at the command level: a command pointed at another program's
/// database, or at another app's store, fails (exit 1) naming the problem,
/// and the folder is exactly as it was: no tables added, no -wal, no -shm.
@MainActor
@Suite struct StoreFileCommandTests {
    let runner: CommandRunner
    init() throws { runner = try CommandRunner() }

    /// Every file in the runner's folder with its bytes.
    func folder() throws -> [String: Data] {
        let names = try FileManager.default.contentsOfDirectory(atPath: runner.folder.url.path)
        return Dictionary(uniqueKeysWithValues: names.map { ($0, FileManager.default.contents(atPath: runner.folder.path($0)) ?? Data()) })
    }

    @Test func anotherProgramsDatabaseIsRefusedAndKeptAsItWas() throws {
        // A valid SQLite file of another program, written as sqlite3 would.
        let sqlite = try ChildProcess(
            "/usr/bin/sqlite3",
            [
                runner.store("planets"),
                "CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO customers (name) VALUES ('Ann');",
            ], errors: .inherit)
        #expect(sqlite.wait() == 0)
        let before = try folder()
        for arguments in [["planets", "add", "Vulcan"], ["planets", "list"], ["planets", "delete", "Mars"]] {
            let result = runner.run(arguments[0], arguments[1], arguments.count > 2 ? arguments[2] : "--json")
            #expect(result.status == .exit(.failure), "\(arguments)")
            #expect(result.err.contains("is not a Folio store") && result.err.contains("customers"), "\(result.err)")
            #expect(try folder() == before, "\(arguments) changed the folder")
        }
    }

    @Test func anotherAppsStoreIsRefusedAndKeptAsItWas() throws {
        #expect(runner.run("planets", "list").status == .exit(.success))
        try FileManager.default.copyItem(atPath: runner.store("planets"), toPath: runner.store("guides"))
        try FileManager.default.removeItem(atPath: runner.store("planets"))
        let before = try folder()
        for arguments in [["guides", "list"], ["guides", "add", "Rush"]] {
            let result = runner.run(arguments[0], arguments[1], arguments.count > 2 ? arguments[2] : "--json")
            #expect(result.status == .exit(.failure), "\(arguments)")
            #expect(result.err.contains("is a Folio store of the Planets schema, not of the BuildGuide schema"), "\(result.err)")
            #expect(try folder() == before, "\(arguments) changed the folder")
        }
    }
}
