import FolioResults
import FolioStore
import FolioTestSupport
import Foundation
import Testing

@testable import FolioPostgres

/// A wake of a process's containers on one namespace is one thread's turn:
/// the hub reads the server once, then each container's follower reads
/// what it brought, in turn, on the hub's queue. Before, a wake woke a
/// thread for each container, and all but one slept until the first one's
/// round trip ended: on a busy machine those wakes cost the clients more
/// than what they did with the saves.
@MainActor
@Suite(.serialized) struct PostgresFeedWakeTests {
    @Test func noContainerWaitsForAnothersReadOfTheSaveItHears() async throws {
        let uri = try await PostgresCluster.shared().makeDatabase()
        // Another URI, so another hub: the writer stands for another process.
        let writer = try PersistentContainer(schema: StoreTestSchema.make(), store: .postgreSQL(uri + "&application_name=writer"))
        let clients = try (0..<8).map { _ in try PersistentContainer(schema: StoreTestSchema.make(), store: .postgreSQL(uri)) }
        let controllers = try clients.map {
            let controller = FetchedResultsController(
                fetchRequest: FetchRequest<TestAnimal>(sortBy: [SortDescriptor(\.commonName)]), managedObjectContext: $0.viewContext)
            try controller.performFetch()
            return controller
        }
        let before = PostgresFeedHub.readWaits(uri: uri)
        for i in 0..<20 {
            let animal = TestAnimal(context: writer.viewContext)
            animal.commonName = "animal \(i)"
            try writer.viewContext.save()
            #expect(
                await waitUntil(60) { controllers.allSatisfy { $0.fetchedObjects?.count == i + 1 } },
                "every controller shows save \(i)")
        }
        let waits = PostgresFeedHub.readWaits(uri: uri) - before
        #expect(waits == 0, "\(waits) reads of \(clients.count) containers' feeds waited for another's")
        withExtendedLifetime((writer, clients)) {}
    }
}
