import FolioPostgres
import FolioStore
import FolioTestSupport
import Foundation
import Testing

/// What a replica's sync cannot settle is kept in the replica file: every
/// container on the file lists it, and so does the next launch.
@MainActor
@Suite struct ReplicaUnsettledTests {
    @Test func aConflictIsListedByEveryContainerOnTheFileAndAfterAReopen() async throws {
        let cluster = try await PostgresCluster.shared()
        let uri = try await cluster.makeDatabase(prefix: "unsettled")
        let dir = try StoreTemporaryDirectory()
        func replica(_ name: String, automatic: Bool = false) throws -> PersistentContainer {
            try PersistentContainer(
                schema: StoreTestSchema.make(), store: .postgreSQL(uri, replica: dir.path(name)), syncsAutomatically: automatic)
        }
        let other = try replica("other.sqlite")
        let expected: SaveConflict
        do {
            let b = try replica("b.sqlite")
            let shared = TestAnimal(context: other.viewContext)
            shared.commonName = "Margay"
            try other.viewContext.save()
            _ = try await other.syncNow()
            _ = try await b.syncNow()
            let mine = try #require(try b.viewContext.existingObject(with: shared.objectID) as? TestAnimal)
            shared.legs = 3
            try other.viewContext.save()
            mine.legs = 5
            try b.viewContext.save()
            _ = try await other.syncNow()
            expected = SaveConflict(
                entity: "TestAnimal", id: shared.objectID.rowID, kind: .changed,
                keys: [.init(key: "legs", stored: .integer(3), context: .integer(5))])
            #expect(try await b.syncNow().unsettled == [expected])

            // A second container on the same file (B syncs it) lists the conflict too.
            let second = try replica("b.sqlite", automatic: true)
            #expect(await waitUntil(30) { second.syncStatus?.conflicts == [expected] }, "\(String(describing: second.syncStatus?.state))")
        }

        // Closed and opened again, before any sync: the conflict is still listed.
        let again = try replica("b.sqlite")
        #expect(await waitUntil { again.syncStatus?.conflicts == [expected] }, "\(String(describing: again.syncStatus?.state))")
        #expect(again.syncStatus?.waitingChanges == 1)
        // Settled by a policy, it is gone, for this launch and the next.
        again.syncMergePolicy = .mergeByPropertyObjectTrump
        // (Once the closed containers' sync has stopped and let go of the file's sync lock.)
        var settled = SyncReport(waiting: 1)
        #expect(
            await waitUntil(30) {
                settled = (try? await again.syncNow()) ?? settled
                return settled.waiting == 0
            }, "\(settled)")
        #expect(settled.unsettled.isEmpty)
        #expect(await waitUntil { again.syncStatus?.conflicts.isEmpty == true })
        #expect(Self.stored(dir.path("b.sqlite")) == 0)
    }

    /// How many records of what the sync could not settle the file holds.
    static func stored(_ path: String) -> Int {
        Int(ReplicaFileQuery.value(path, "SELECT count(*) FROM folio_metadata WHERE key = 'replica_unsettled'")) ?? -1
    }
}
