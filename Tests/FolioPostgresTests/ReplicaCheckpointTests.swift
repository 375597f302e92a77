import FolioPostgres
import FolioStore
import FolioTestSupport
import Foundation
import Testing

/// The sync writes the replica file on a connection of its own; like a
/// save's, its commits leave checkpoints to the background (past 4,000
/// pages of log) instead of SQLite copying the log into the file, and
/// syncing it, inside a pull or push that passed 1,000 pages.
@MainActor
@Suite struct ReplicaCheckpointTests {
    func size(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
    }

    @Test func aBigPullLeavesItsCheckpointToTheBackground() async throws {
        let cluster = try await PostgresCluster.shared()
        let uri = try await cluster.makeDatabase(prefix: "checkpoint")
        let dir = try StoreTemporaryDirectory()
        let path = dir.path("r.sqlite")
        let replica = try PersistentContainer(
            schema: StoreTestSchema.make(), store: .postgreSQL(uri, replica: path), syncsAutomatically: false)
        _ = try await replica.syncNow()
        let before = size(path)

        // About 1,500 pages of rows saved elsewhere: one pull, one commit of the sync.
        let server = try PersistentContainer(schema: StoreTestSchema.make(), store: .postgreSQL(uri))
        let long = String(repeating: "savanna ", count: 375)
        for i in 0..<1500 {
            let animal = TestAnimal(context: server.viewContext)
            animal.commonName = "animal \(i)"
            animal.habitat = long
        }
        try server.viewContext.save()
        let report = try await replica.syncNow()
        #expect(report.pulled == 1)
        #expect(try replica.viewContext.count(for: FetchRequest<TestAnimal>()) == 1500)
        let after = size(path)
        #expect(after - before < 1 << 20, "the pull's commit checkpointed: the file grew from \(before) to \(after) bytes")
        #expect((size(path + "-wal")) > 4 << 20)
    }
}
