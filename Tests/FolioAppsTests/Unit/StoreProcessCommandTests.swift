import FolioTestSupport
import Foundation
import Testing

/// Findings 7 and 8 with the real `folio`: `list` works on a write-protected
/// store in a write-protected folder and writes nothing there; a first
/// launch killed at any moment leaves a store every later command can use.
@Suite(.serialized, .enabled(if: AppProcess.folioBinaryIsReady, "folio is not built or is stale: run scripts/setup"))
struct StoreProcessCommandTests {
    /// How to run `folio` as a user whom file permissions bind (root ignores them): `setpriv` to nobody.
    static let unprivileged: [String]? = {
        if getuid() != 0 { return [] }
        let setpriv = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
        guard FileManager.default.isExecutableFile(atPath: setpriv[0]),
            (try? AppProcess.run(URL(fileURLWithPath: setpriv[0]), Array(setpriv.dropFirst()) + ["/bin/true"]))?.status == 0
        else { return nil }
        return setpriv
    }()

    func folio(_ arguments: [String], unprivileged: Bool = false) throws -> AppProcess.Result {
        let binary = try AppProcess.folioBinary()
        guard unprivileged, let prefix = Self.unprivileged, !prefix.isEmpty else { return try AppProcess.run(binary, arguments) }
        return try AppProcess.run(URL(fileURLWithPath: prefix[0]), Array(prefix.dropFirst()) + [binary.path] + arguments)
    }

    func snapshot(_ folder: URL) throws -> [String: Data] {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        return Dictionary(
            uniqueKeysWithValues: names.map { ($0, FileManager.default.contents(atPath: folder.appendingPathComponent($0).path) ?? Data()) }
        )
    }

    @Test(.enabled(if: unprivileged != nil, "no way to run folio as a user that file permissions bind"))
    func listReadsAWriteProtectedStoreAndWritesNothing() throws {
        let root = try AppTemporaryDirectory()
        for (name, folderMode) in [("locked", 0o555), ("open", 0o777)] {
            let folder = root.url.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let store = folder.appendingPathComponent("planets.sqlite").path
            #expect(try folio(["planets", "add", "Vulcan", "--store", store]).status == 0)
            chmod(store, 0o444)
            chmod(folder.path, mode_t(folderMode))
            defer { chmod(folder.path, 0o755) }
            let before = try snapshot(folder)
            let listed = try folio(["planets", "list", "--store", store], unprivileged: true)
            #expect(listed.status == 0, "\(name): \(listed)")
            #expect(listed.stdout.contains("  Mercury\n  Venus\n") && listed.stdout.contains("Vulcan"), "\(name): \(listed)")
            let added = try folio(["planets", "add", "Romulus", "--store", store], unprivileged: true)
            #expect(added.status == 1 && added.stderr.contains("write-protected"), "\(name): \(added)")
            if name == "locked" {
                #expect(try snapshot(folder) == before, "list wrote in a write-protected folder")
            } else {
                // There SQLite may make an empty log and its index, as for any reader; store and log are unchanged.
                let after = try snapshot(folder)
                #expect(after["planets.sqlite"] == before["planets.sqlite"])
                #expect(after["planets.sqlite-wal"] == before["planets.sqlite-wal"] ?? (after["planets.sqlite-wal"].map { _ in Data() }))
            }
        }
    }

    @Test func aFirstLaunchKilledAtAnyMomentLeavesAUsableStore() throws {
        let seed = StoreSplitMix64.seedFromEnvironment()
        print("seed:", seed)
        var rng = StoreSplitMix64(seed: seed)
        let folder = try AppTemporaryDirectory()
        let binary = try AppProcess.folioBinary()
        for round in 0..<15 {
            let store = folder.path("guides-\(round).sqlite")
            let first = try ChildProcess(binary.path, ["guides", "list", "--store", store])
            usleep(UInt32.random(in: 0...250_000, using: &rng))
            first.send(SIGKILL)
            first.wait()
            let added = try AppProcess.run(binary, ["guides", "add", "Rush \(round)", "--race", "Protoss", "--store", store])
            #expect(added.status == 0, "round \(round) (seed \(seed)): \(added)")
        }
    }
}
