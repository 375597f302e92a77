import FolioAdapters
import FolioAppSupport
import FolioStore
import FolioTerminal
import FolioTestSupport
import Foundation
import PlanetsApp
import Testing

/// Finding 12's rough edges: each message a user meets says what is wrong
/// and what can be done, with options that exist.
@MainActor
@Suite struct RoughEdgeTests {
    @Test func renamingAnOrderOntoAnotherIsRefusedUnlessMerging() throws {
        let runner = try CommandRunner()
        let before = try runner.sections("zoo")
        let orders = before.map(\.name)
        let (old, new) = (try #require(orders.first), try #require(orders.last))
        let refused = runner.run("zoo", "rename-order", old, new)
        #expect(refused.status == .exit(.failure), "\(refused)")
        #expect(refused.err.contains("--merge") && refused.err.contains(new), "\(refused.err)")
        #expect(try runner.sections("zoo").map(\.name) == orders, "nothing merged")
        #expect(runner.run("zoo", "rename-order", old, "Brand New Order").status == .exit(.success), "a new name is a rename")
        #expect(runner.run("zoo", "rename-order", "Brand New Order", new, "--merge").status == .exit(.success))
        #expect(try runner.sections("zoo").map(\.name) == Array(orders.dropFirst()), "merged, when asked")
    }

    @Test func anUnknownRaceListsTheRaces() throws {
        let runner = try CommandRunner()
        let result = runner.run("guides", "add", "Rush", "--race", "protoss")
        #expect(result.status == .exit(.failure))
        #expect(result.err.contains("--race") && result.err.contains("Protoss, Terran, Zerg"), "\(result.err)")
    }

    @Test func anUnknownServerParameterIsAUsageErrorNamingIt() throws {
        let runner = try CommandRunner()
        let console = Console.capturing()
        let command = FolioCommand(apps: [PlanetsApp.self], console: console, environment: ["HOME": runner.folder.url.path])
        let status = command.run(["planets", "list", "--store", "postgresql:///folio?host=/nowhere&colour=red"])
        #expect(status == .exit(.usage), "\(status) \(console.errorOutput)")
        #expect(console.errorOutput.contains("colour") && !console.errorOutput.contains("cannot be reached"), "\(console.errorOutput)")
    }

    @Test func anOfflineAlertIsOneSentenceWithTheServersWordsBehindQuestionMark() {
        let libpq = """
            connection to server on socket "/tmp/pg/.s.PGSQL.5432" failed: No such file or directory
            \tIs the server running locally and accepting connections on that socket?
            """
        let error = StoreError.offline(store: "postgresql:///folio", message: libpq)
        let sentence = ErrorText.sentence(for: error)
        #expect(!sentence.contains("\n") && !sentence.contains("socket") && sentence.filter { $0 == "." }.count == 1, "\(sentence)")
        let detail = ErrorText.detail(for: error)
        #expect(detail?.contains("No such file or directory") == true && detail?.contains("\n") == false)

        let driver = TerminalRecordingDriver(columns: 60, rows: 20)
        let app = Application(root: NavigationController(root: ViewController(title: "Planets")), driver: driver)
        let alert = AlertController(title: "Not Deleted", message: sentence, preferredStyle: .alert)
        alert.detail = detail
        alert.addAction(AlertAction(title: "OK", style: .cancel))
        app.present(alert)
        app.render()
        #expect(!driver.screen.text.contains("socket") && driver.screen.text.contains("? details"), "\(driver.screen.text)")
        app.send("?")
        #expect(app.presentedAlert === alert && driver.screen.text.contains("socket"), "\(driver.screen.text)")
    }
}
