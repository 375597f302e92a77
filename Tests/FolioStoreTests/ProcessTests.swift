import CSQLite
import FolioStore
import FolioTestSupport
import Foundation
import Testing

/// `PRAGMA integrity_check` through the C API, independent of the store.
func integrityCheck(_ path: String) -> String {
    var db: OpaquePointer?
    guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else { return "cannot open" }
    defer { sqlite3_close(db) }
    var stmt: OpaquePointer?
    guard sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &stmt, nil) == SQLITE_OK else { return "cannot prepare" }
    defer { sqlite3_finalize(stmt) }
    var result: [String] = []
    while sqlite3_step(stmt) == SQLITE_ROW { result.append(String(cString: sqlite3_column_text(stmt, 0))) }
    return result.joined(separator: "; ")
}

/// The numbers of the stored items, in order, and the numbers of those not
/// yet flagged by the next save (read on the main actor, where the container lives).
@MainActor
func storedItemNumbers(_ store: StoreDescription) throws -> (numbers: [Int], unflagged: [Int]) {
    let container = try PersistentContainer(schema: StoreTestSchema.make(), store: store)
    let keys = try container.viewContext.fetchKeys(
        FetchRequest<TestItem>(sortBy: [SortDescriptor(\.count)]),
        keyPaths: [\TestItem.count, \TestItem.flag])
    let rows = keys.compactMap { row -> (Int, Bool)? in
        guard case .integer(let n) = row.values[0], case .integer(let flag) = row.values[1] else { return nil }
        return (Int(n), flag != 0)
    }
    return (rows.map(\.0), rows.filter { !$0.1 }.map(\.0))
}

@Suite(.serialized) struct ProcessTests {
    let worker = StoreChildProcess.sibling("folio-store-worker")

    /// Runs off the main actor: it waits on child processes, and other suites' merges must keep flowing.
    /// Each save inserts item N and flags item N-1, so a torn save would show as a gap or as two unflagged items.
    @Test(arguments: TestBackend.allCases)
    func killedWriterNeverLosesAcknowledgedSaves(_ backend: TestBackend) async throws {
        let seed = StoreSplitMix64.seedFromEnvironment()
        print("seed:", seed, "backend:", backend)
        var rng = StoreSplitMix64(seed: seed)
        let store = try await backend.makeStore()
        var acknowledged = 0
        for round in 0..<25 {
            let child = try StoreChildProcess(executable: worker, arguments: ["save-loop", store.address])
            #expect(await child.waitForLine { $0.hasPrefix("saved") } != nil, "round \(round): the worker never saved")
            try await Task.sleep(for: .microseconds(UInt64.random(in: 0...60_000, using: &rng)))
            await child.kill()
            let saves = child.lines.compactMap { Int($0.line.dropFirst("saved ".count)) }
            acknowledged = max(acknowledged, saves.max() ?? 0)
            if let path = store.description.path { #expect(integrityCheck(path) == "ok", "round \(round)") }
            let (numbers, unflagged) = try await storedItemNumbers(store.description)
            #expect(numbers.count >= acknowledged, "round \(round): \(numbers.count) stored, \(acknowledged) acknowledged, \(backend)")
            #expect(
                Array(numbers.prefix(acknowledged)) == Array(1...max(acknowledged, 1)).prefix(acknowledged).map { $0 },
                "round \(round): an acknowledged save is missing, \(backend)")
            #expect(numbers == Array(1...max(numbers.count, 1)).prefix(numbers.count).map { $0 }, "round \(round): a gap, \(backend)")
            #expect(unflagged.count <= 1 + round, "round \(round): a torn save left \(unflagged) unflagged, \(backend)")
        }
        #expect(acknowledged > 25)
    }

    @MainActor
    @Test func anotherProcessSavesArriveInOrder() async throws {
        let dir = try StoreTemporaryDirectory()
        let path = dir.path("shared.sqlite")
        let container = try PersistentContainer(schema: StoreTestSchema.make(), path: path)
        let context = container.viewContext
        var heard: [(ChangeSet, Date)] = []
        let token = context.observeChanges { heard.append(($0, Date())) }
        let names = ["Ocelot", "Tapir", "Gorilla", "Manatee", "Okapi"]
        let child = try StoreChildProcess(executable: worker, arguments: ["insert", path] + names)
        // Saves read together arrive as one change set.
        let inserted = { heard.flatMap { $0.0.inserted.sorted() } }
        #expect(await waitUntil(10) { inserted().count == names.count })
        await child.finish()
        let saved = child.lines.filter { $0.line.hasPrefix("saved ") }
        #expect(saved.count == names.count)
        #expect(inserted().map(\.description) == saved.map { String($0.line.dropFirst("saved ".count)) })
        #expect(heard.allSatisfy { $0.0.origin == .otherProcess })
        var latencies: [Double] = []
        for (changes, at) in heard {
            for id in changes.inserted {
                guard let save = saved.first(where: { $0.line == "saved \(id)" }) else { continue }
                latencies.append(at.timeIntervalSince(save.at))
            }
        }
        // How fast is for `folio-bench store` to say; here only that they all arrive.
        print("cross-process latency (s):", latencies.map { String(format: "%.3f", $0) })
        #expect(latencies.count == names.count)
        #expect(Set(try context.fetch(FetchRequest<TestAnimal>()).map(\.commonName)) == Set(names))
        token.cancel()
    }

    @MainActor
    @Test func anotherProcessHearsOurSaves() async throws {
        let dir = try StoreTemporaryDirectory()
        let path = dir.path("shared.sqlite")
        let container = try PersistentContainer(schema: StoreTestSchema.make(), path: path)
        let child = try StoreChildProcess(executable: worker, arguments: ["watch", path])
        #expect(await child.waitForLine { $0 == "ready" } != nil)
        let a = TestAnimal(context: container.viewContext)
        a.commonName = "Okapi"
        try container.viewContext.save()
        let heard = await child.waitForLine { $0.hasPrefix("heard") }
        #expect(heard?.line == "heard \(a.objectID)")
        await child.finish()
    }
}
