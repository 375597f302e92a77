import FolioStore
import FolioTestSupport
import Foundation
import Testing

/// Finding 8: a new store appears whole, with its schema and seed, so a
/// process killed at any moment of its first launch leaves no store or a
/// seeded one, and processes launching at once seed it once.
@Suite(.serialized) struct StoreSeedingTests {
    let worker = StoreChildProcess.sibling("folio-store-worker")
    static let seeded = 3000

    /// The items in the store at `path`, opened (and seeded when missing) here.
    @MainActor
    func items(_ path: String) throws -> Int {
        let container = try PersistentContainer(schema: StoreTestSchema.make(), path: path) { context in
            for n in 1...Self.seeded { TestItem(context: context).count = n }
        }
        return try container.viewContext.count(for: FetchRequest<TestItem>())
    }

    @Test func aFirstLaunchKilledAtAnyMomentLeavesNoStoreOrASeededOne() async throws {
        let seed = StoreSplitMix64.seedFromEnvironment()
        print("seed:", seed)
        var rng = StoreSplitMix64(seed: seed)
        let dir = try StoreTemporaryDirectory()
        var whole = 0, none = 0
        for round in 0..<30 {
            let path = dir.path("first-\(round).sqlite")
            let child = try StoreChildProcess(executable: worker, arguments: ["create", path, "\(Self.seeded)"])
            // From before the process is up to after it has opened the store.
            try await Task.sleep(for: .microseconds(UInt64.random(in: 0...400_000, using: &rng)))
            await child.kill()
            let opened = child.lines.contains { $0.line.hasPrefix("opened") }
            if FileManager.default.fileExists(atPath: path) {
                whole += 1
                // Whatever the moment, what is there is the whole seed, and no more.
                let count = try await MainActor.run { try items(path) }
                #expect(count == Self.seeded, "round \(round) (seed \(seed)): \(count) items")
            } else {
                none += 1
                #expect(!opened, "round \(round): opened, yet no store")
                #expect(try await MainActor.run { try items(path) } == Self.seeded)
            }
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.url.path).filter { $0.hasSuffix(".folio-new") }
            #expect(leftovers.isEmpty, "round \(round): \(leftovers)")
        }
        print("killed first launches: \(whole) left a store, \(none) left none")
    }

    @Test func concurrentFirstLaunchesSeedOnce() async throws {
        let dir = try StoreTemporaryDirectory()
        for round in 0..<5 {
            let path = dir.path("together-\(round).sqlite")
            let children = try (0..<6).map { _ in
                try StoreChildProcess(executable: worker, arguments: ["create", path, "\(Self.seeded)", "--wait"])
            }
            for child in children { #expect(await child.waitForLine { $0 == "ready" } != nil) }
            for child in children { child.closeInput() }
            for child in children {
                let opened = await child.waitForLine { $0.hasPrefix("opened") || $0.hasPrefix("failed") }
                await child.finish()
                #expect(
                    opened?.line == "opened \(Self.seeded)",
                    "round \(round): \(String(describing: opened?.line)); exit status \(child.terminationStatus), printed \(child.lines.map(\.line))"
                )
            }
            #expect(try await MainActor.run { try items(path) } == Self.seeded, "round \(round)")
        }
    }
}
