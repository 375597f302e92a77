import FolioAppSupport
import Testing

@MainActor
@Suite struct GuidesCommandTests {
    let runner: CommandRunner
    init() throws { runner = try CommandRunner() }

    func guide(_ name: String) throws -> [String: Any]? {
        try runner.sections("guides").flatMap(\.rows).first { $0["name"] as? String == name }
    }

    @Test func seededGuidesAreListedByNameWithTheirRace() {
        let out = runner.run("guides", "list").out
        #expect(out.hasPrefix("  4-gate pressure — Protoss\n  Cannon Rush — Protoss\n"))
        #expect(out.split(separator: "\n").count == 7)
    }

    @Test func unitsAppendInOrderAndDuplicatesAreAllowed() throws {
        #expect(runner.run("guides", "add", "Rush", "--race", "Terran").status == .exit(.success))
        for unit in ["SCV", "Marine", "MULE", "Marine"] {
            #expect(runner.run("guides", "add-unit", "Rush", unit).status == .exit(.success))
        }
        #expect(try guide("Rush")?["units"] as? [String] == ["SCV", "Marine", "MULE", "Marine"])
        #expect(runner.run("guides", "delete", "Rush").status == .exit(.success))
        #expect(try guide("Rush") == nil)
    }

    @Test func failuresExitOneAndWriteNothing() throws {
        #expect(runner.run("guides", "add", "Nowhere").status == .exit(.success))
        let noRace = runner.run("guides", "add-unit", "Nowhere", "Zealot")
        #expect(noRace.status == .exit(.failure))
        #expect(noRace.err.contains("no race"))
        #expect(runner.run("guides", "add-unit", "Cannon Rush", "Marine").status == .exit(.failure))
        #expect(runner.run("guides", "add-unit", "Missing", "Zealot").status == .exit(.failure))
        #expect(runner.run("guides", "add", "X", "--race", "Elves").status == .exit(.failure))
        #expect(runner.run("guides", "delete", "Missing").status == .exit(.failure))
        #expect(runner.run("guides", "add-unit", "Cannon Rush").status == .exit(.usage))
        #expect(try guide("Cannon Rush")?["units"] as? [String] == [])
        #expect(try guide("X") == nil)
    }
}
