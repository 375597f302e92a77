import FolioStore
import FolioTestSupport
import Foundation
import Testing

@testable import FolioPostgres
@testable import FolioStore

/// A replica's sync hears the server announce its own pushes; the history
/// they add holds nothing it does not have, so those wakes read nothing.
@MainActor
@Suite struct ReplicaOwnWakeTests {
    @Test func aWakeByTheReplicasOwnPushesPullsNothingButAnotherSaveIsStillPulled() async throws {
        let cluster = try await PostgresCluster.shared()
        let uri = try await cluster.makeDatabase(prefix: "ownwake")
        let dir = try StoreTemporaryDirectory()
        let a = try PersistentContainer(schema: StoreTestSchema.make(), store: .postgreSQL(uri, replica: dir.path("a.sqlite")))
        let engine = try #require(a.coordinator.syncEngine as? ReplicaEngine)
        // The first push may be announced as the listening session starts, which is read in full.
        TestZoo(context: a.viewContext).name = "Zoo 0"
        try a.viewContext.save()
        #expect(await waitUntil(30) { a.syncStatus?.waitingChanges == 0 && a.syncStatus?.lastSynced != nil })
        for i in 1...3 {
            let skipped = engine.pullsSkippedForOwnPushes
            TestZoo(context: a.viewContext).name = "Zoo \(i)"
            try a.viewContext.save()
            // Pushed, its announcement wakes the sync, which reads nothing for it.
            #expect(await waitUntil(30) { engine.pullsSkippedForOwnPushes > skipped }, "save \(i)")
        }
        // Another client's save is still pulled.
        let online = try PersistentContainer(schema: StoreTestSchema.make(), store: .postgreSQL(uri))
        TestZoo(context: online.viewContext).name = "Online Zoo"
        try online.viewContext.save()
        #expect(await waitUntil(30) { (try? a.viewContext.count(for: FetchRequest<TestZoo>())) == 5 })
    }
}
