import FolioAppSupport
import Testing

@MainActor
@Suite struct LocationsCommandTests {
    let runner: CommandRunner
    init() throws { runner = try CommandRunner() }

    @Test func samplesShowDescriptionOrPlaceholderAndAddressOrCoordinates() {
        let out = runner.run("locations", "list").out
        #expect(out.contains("Bar\n  (No Description) — Lat: 37.77493000, Long: -122.41942000\n"))
        #expect(out.contains("  Coit Tower — Lat: 37.80239000, Long: -122.40582000\n"))
        #expect(out.contains("  Infinite Loop — 1 Infinite Loop, Cupertino, CA 95014\n"))
    }

    @Test func addThenDeleteById() throws {
        let added = runner.run(
            "locations", "add", "--description", "Pier 39", "--category", "Landmark",
            "--latitude", "37.8087", "--longitude", "-122.4098", "--date", "2025-07-01T12:00:00Z")
        #expect(added.status == .exit(.success))
        let id = added.out.trimmingCharacters(in: .whitespacesAndNewlines)
        let landmark = try #require(try runner.sections("locations").first { $0.name == "Landmark" })
        #expect(landmark.rows.map { $0["description"] as? String } == ["Coit Tower", "Pier 39"])
        #expect(landmark.rows.last?["id"] as? String == id)
        #expect(runner.run("locations", "delete", id).status == .exit(.success))
        #expect(try runner.sections("locations").first { $0.name == "Landmark" }?.rows.count == 1)
    }

    @Test func invalidValuesExitOneAndWriteNothing() throws {
        let before = try runner.sections("locations").flatMap(\.rows).count
        let north = runner.run("locations", "add", "--description", "x", "--category", "Bar", "--latitude", "95", "--longitude", "0")
        #expect(north.status == .exit(.failure))
        #expect(north.err.contains("--latitude") && north.err.contains("between -90 and 90"))
        #expect(
            runner.run(
                "locations", "add", "--description", "x", "--category", "Bar",
                "--latitude", "0", "--longitude", "181"
            ).status == .exit(.failure))
        #expect(
            runner.run(
                "locations", "add", "--description", "x", "--category", "Moon Base",
                "--latitude", "0", "--longitude", "0"
            ).status == .exit(.failure))
        #expect(
            runner.run(
                "locations", "add", "--description", "x", "--category", "Bar",
                "--latitude", "0", "--longitude", "0", "--date", "tomorrow"
            ).status == .exit(.failure))
        #expect(runner.run("locations", "delete", "999").status == .exit(.failure))
        #expect(runner.run("locations", "delete", "abc").status == .exit(.failure))
        #expect(runner.run("locations", "add", "--description", "x").status == .exit(.usage))
        #expect(try runner.sections("locations").flatMap(\.rows).count == before)
    }

    @Test func aCorruptStoreIsReportedAndLeftUntouched() throws {
        let garbage = String(repeating: "not a database ", count: 100)
        try garbage.write(toFile: runner.store("locations"), atomically: true, encoding: .utf8)
        let result = runner.run("locations", "list")
        #expect(result.status == .exit(.failure))
        #expect(result.err.contains(runner.store("locations")))
        #expect(try String(contentsOfFile: runner.store("locations"), encoding: .utf8) == garbage)
    }
}
