import FolioAppSupport
import FolioStore
import FolioTerminal
import FolioTestSupport
import Foundation
import PlanetsApp
import Testing

/// Finding 3: one text limit, the forms' 500 characters, for every text a
/// command writes; a long name already in the store (written by another
/// program) is shortened in every message that quotes it, so a sheet stays
/// on the screen and stderr stays one short line.
@MainActor
@Suite struct TextLimitTests {
    nonisolated static let long = String(repeating: "x", count: 501)
    nonisolated static let longest = String(repeating: "y", count: 500)  // TextInput.maximumLength

    /// Every command argument that is stored as text, with the option its message names.
    nonisolated static let textArguments: [(app: String, arguments: [String], option: String)] = [
        ("planets", ["add", long], "NAME"),
        ("zoo", ["add", "--name", long, "--habitat", "h", "--order", "o"], "--name"),
        ("zoo", ["add", "--name", "n", "--habitat", long, "--order", "o"], "--habitat"),
        ("zoo", ["add", "--name", "n", "--habitat", "h", "--order", long], "--order"),
        ("zoo", ["rename-order", "Sirenia", long], "NEW"),
        ("locations", ["add", "--description", long, "--category", "Bar", "--latitude", "0", "--longitude", "0"], "--description"),
        (
            "locations", ["add", "--description", "d", "--address", long, "--category", "Bar", "--latitude", "0", "--longitude", "0"],
            "--address"
        ),
        ("guides", ["add", long], "NAME"),
    ]

    @Test(arguments: textArguments.indices)
    func aValuePastTheLimitIsRefusedNamingItsOption(_ index: Int) throws {
        let (app, arguments, option) = Self.textArguments[index]
        let runner = try CommandRunner()
        let before = try runner.sections(app)
        let result = runner.run(arguments: [app] + arguments)
        #expect(result.status == .exit(.failure), "\(app) \(option): \(result)")
        #expect(result.err.contains(option) && result.err.contains("at most 500"), "\(result.err.prefix(300))")
        #expect(result.err.count < 300, "the message quotes the value shortened: \(result.err.count) characters")
        let after = try runner.sections(app)
        #expect(after.map(\.rows.count) == before.map(\.rows.count) && after.map(\.name) == before.map(\.name), "nothing written")
    }

    @Test func aValueAtTheLimitIsTaken() throws {
        let runner = try CommandRunner()
        #expect(runner.run("planets", "add", Self.longest).status == .exit(.success))
        #expect(
            runner.run("zoo", "add", "--name", Self.longest, "--habitat", Self.longest, "--order", Self.longest).status
                == .exit(.success))
    }

    @Test func aLongNameInTheStoreIsShortenedInMessages() throws {
        let runner = try CommandRunner()
        let huge = String(repeating: "z", count: 100_000)
        // Another program wrote it, past any limit of ours.
        let container = try PlanetsStore.open(at: URL(fileURLWithPath: runner.store("planets")))
        let planet = Planet(context: container.viewContext)
        planet.name = huge
        planet.position = 99
        try container.viewContext.save()
        let refused = runner.run("planets", "add", huge)
        #expect(refused.status == .exit(.failure) && refused.err.count < 300, "\(refused.err.prefix(300))")
        let missing = runner.run("planets", "delete", huge + "q")
        #expect(missing.status == .exit(.failure) && missing.err.count < 300, "\(missing.err.prefix(300))")

        let driver = TerminalRecordingDriver(columns: 60, rows: 20)
        let app = Application(root: try PlanetsApp.makeScreen(storeURL: URL(fileURLWithPath: runner.store("planets"))), driver: driver)
        app.render()
        app.send("G d")  // the last row: the long planet's sheet
        let message = try #require(app.presentedAlert?.message)
        #expect(message.count < 200 && message.contains("…"), "\(message.prefix(300))")
        #expect(driver.screen.text.contains("Delete") && driver.screen.text.contains("Cancel"), "\(driver.screen.text)")
    }
}
