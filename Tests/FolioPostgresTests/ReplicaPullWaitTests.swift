import FolioStore
import FolioTestSupport
import Foundation
import Synchronization
import Testing

@testable import FolioPostgres

/// A sync the app asks for pulls every save committed on the server
/// before it began, though a transaction of the namespace that may still
/// write history (a save in flight, another process's trim) holds the
/// horizon below those saves' rows: the pull waits for it to end. Before,
/// the pull read twice and left such rows to a later pull, which a replica
/// that syncs only when asked never made by itself.
@MainActor
@Suite struct ReplicaPullWaitTests: ReplicaSuite {
    let cluster: PostgresCluster
    let uri: String
    let dir: StoreTemporaryDirectory

    init() async throws {
        cluster = try await PostgresCluster.shared()
        uri = try await cluster.makeDatabase(prefix: "pullwait")
        dir = try StoreTemporaryDirectory()
    }

    @Test func anAskedSyncPullsASaveHeldPastTheHorizonByAWriterInFlight() async throws {
        let a = try replica("a.sqlite")
        let animal = TestAnimal(context: a.viewContext)
        animal.commonName = "Okapi"
        animal.legs = 4
        try a.viewContext.save()
        _ = try await a.syncNow()

        // A transaction of the namespace that could still write a history row, with an ID older than the save's.
        let held = try PGConnection(uri: uri)
        try held.execute("BEGIN; LOCK TABLE folio_history IN ROW EXCLUSIVE MODE; SELECT pg_current_xact_id()")
        let online = try PersistentContainer(schema: StoreTestSchema.make(), store: .postgreSQL(uri))
        let there = try #require(try online.viewContext.existingObject(with: animal.objectID) as? TestAnimal)
        there.legs = 3
        try online.viewContext.save()

        let release = HeldTransaction(connection: held)
        Thread {
            usleep(300_000)
            release.commit()
        }.start()
        _ = try await a.syncNow()
        #expect(release.committed, "the sync returned only after the transaction in flight ended")
        a.viewContext.refreshAllObjects()
        #expect(animal.legs == 3, "the save committed before the sync began was pulled by it")
    }
}

/// The open transaction, ended by another thread.
private final class HeldTransaction: @unchecked Sendable {  // one thread at a time uses it: the test's, then the releasing one
    private let connection: PGConnection
    private let done = Atomic<Bool>(false)
    var committed: Bool { done.load(ordering: .acquiring) }

    init(connection: PGConnection) { self.connection = connection }

    func commit() {
        _ = try? connection.execute("COMMIT")
        done.store(true, ordering: .releasing)
    }
}
