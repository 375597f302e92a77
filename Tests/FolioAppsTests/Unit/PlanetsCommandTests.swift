import FolioAppSupport
import FolioTestSupport
import Foundation
import PlanetsApp
import Testing

@MainActor
@Suite struct PlanetsCommandTests {
    let folder: AppTemporaryDirectory
    init() throws { folder = try AppTemporaryDirectory() }

    func run(_ arguments: String...) -> (FolioCommand.Outcome, Console) {
        let console = Console.capturing()
        let command = FolioCommand(apps: [PlanetsApp.self], console: console, environment: ["HOME": folder.url.path])
        return (command.run(arguments + ["--store", folder.path("planets.sqlite")]), console)
    }

    @Test func aNewStoreIsSeededWithTheNinePlanetsInOrder() {
        let (outcome, console) = run("planets", "list")
        #expect(outcome == .exit(.success))
        #expect(console.output == SampleData.planets.map { "  " + $0 + "\n" }.joined())
    }

    @Test func addAppendsAndDeleteRemoves() {
        #expect(run("planets", "add", "Vulcan").0 == .exit(.success))
        #expect(run("planets", "delete", "Mars").0 == .exit(.success))
        let (_, console) = run("planets", "list")
        let names = console.output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(names == SampleData.planets.filter { $0 != "Mars" } + ["Vulcan"])
    }

    @Test func failuresExitOneAndWriteNothing() {
        let (missing, console) = run("planets", "delete", "Vulcan")
        #expect(missing == .exit(.failure))
        #expect(console.errorOutput.contains("no planet named 'Vulcan'"))
        let (duplicate, duplicateConsole) = run("planets", "add", "Earth")
        #expect(duplicate == .exit(.failure))
        #expect(duplicateConsole.errorOutput.contains("already exists"))
        #expect(run("planets", "list").1.output.split(separator: "\n").count == 9)
    }

    @Test func usageErrorsExitTwo() {
        #expect(run("planets", "add").0 == .exit(.usage))
        #expect(run("planets", "fly").0 == .exit(.usage))
        #expect(run("planets", "list", "--bogus").0 == .exit(.usage))
        #expect(run("moons").0 == .exit(.usage))
    }

    @Test func jsonListsIdsAndFields() throws {
        let (_, console) = run("planets", "list", "--json")
        let data = Data(console.output.utf8)
        let sections = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        #expect(sections.count == 1)
        let rows = try #require(sections[0]["rows"] as? [[String: Any]])
        #expect(rows.map { $0["name"] as? String } == SampleData.planets)
        #expect(rows.allSatisfy { $0["id"] is String })
    }

    @Test func helpAndVersionExitZero() {
        let (help, console) = run("planets", "--help")
        #expect(help == .exit(.success))
        #expect(console.output.contains("delete NAME"))
        #expect(run("--version").0 == .exit(.success))
    }
}

@MainActor
@Suite struct OneLineErrorTests {
    @Test func lineBreaksInAValueDoNotSplitTheError() throws {
        let folder = try AppTemporaryDirectory()
        for name in ["\n", "a\r\nb", "x\u{2028}y", "\t"] {
            let console = Console.capturing()
            let command = FolioCommand(apps: [PlanetsApp.self], console: console, environment: ["HOME": folder.url.path])
            #expect(command.run(["planets", "delete", name, "--store", folder.path("planets.sqlite")]) == .exit(.failure))
            let message = console.errorOutput
            #expect(
                message.filter { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }.count == 1 && message.hasSuffix("\n"),
                "one line: \(message.debugDescription)")
            #expect(!message.unicodeScalars.contains { $0.value == 0x2028 || $0.value == 0x09 }, "\(message.debugDescription)")
        }
    }
}
