import CSQLite
import FolioTestSupport
import Foundation
import Testing

@testable import FolioStore

/// Finding 5 for the store: a container with every part in use (the view
/// context and its observers, a background context, the history follower
/// that has delivered another connection's save, the checkpointers) is
/// released when its owner lets go, and by then none of its connections is
/// open: no descriptor on the store's files, and a TRUNCATE checkpoint from
/// a raw connection succeeds and empties the log.
@MainActor
@Suite struct ContainerReleaseTests {
    /// What a released container must leave: no descriptor, a log that folds away.
    func expectClosed(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(StoreFileDescriptors.open(on: path) == [], "a connection outlived its container", sourceLocation: sourceLocation)
        var db: OpaquePointer?
        #expect(sqlite3_open(path, &db) == SQLITE_OK, sourceLocation: sourceLocation)
        defer { sqlite3_close(db) }
        // A first read puts the connection in WAL mode; before it a checkpoint does nothing.
        #expect(sqlite3_exec(db, "SELECT count(*) FROM sqlite_master", nil, nil, nil) == SQLITE_OK, sourceLocation: sourceLocation)
        #expect(
            sqlite3_wal_checkpoint_v2(db, nil, SQLITE_CHECKPOINT_TRUNCATE, nil, nil) == SQLITE_OK,
            "another connection still reads or checkpoints the store", sourceLocation: sourceLocation)
        #expect((StoreFile.size(of: path + "-wal") ?? 0) == 0, sourceLocation: sourceLocation)
    }

    @Test func aContainerWithEveryPartInUseIsReleasedWithItsConnectionsClosed() async throws {
        let directory = try StoreTemporaryDirectory()
        let path = directory.path("release.sqlite")
        weak var weakContainer: PersistentContainer?
        weak var weakView: ObjectContext?
        weak var weakCoordinator: StoreCoordinator?
        do {
            let container = try PersistentContainer(schema: StoreTestSchema.make(), path: path)
            var heard: [ChangeSet.Origin] = []
            let token = container.viewContext.observeChanges { heard.append($0.origin) }
            _ = container.viewContext.observeDidSave { _ in }
            let background = container.newBackgroundContext()
            try await background.perform { context in
                TestAnimal(context: context).commonName = "Bat"
                try context.save()
            }
            // Another connection's save, heard through the follower.
            let other = try PersistentContainer(schema: StoreTestSchema.make(), path: path)
            TestAnimal(context: other.viewContext).commonName = "Owl"
            try other.viewContext.save()
            #expect(await waitUntil { heard.contains(.otherProcess) || heard.contains(.otherContext) })
            _ = try container.viewContext.fetch(FetchRequest<TestAnimal>())
            weakContainer = container
            weakView = container.viewContext
            weakCoordinator = container.coordinator
            _ = token
        }
        #expect(weakContainer == nil, "the container outlived its owner")
        #expect(weakView == nil, "the view context outlived its owner")
        #expect(weakCoordinator == nil, "the coordinator outlived its owner")
        expectClosed(path)
    }

    /// A scheduled read can hold the history follower a moment past its
    /// coordinator (as a block already queued on its queue does); the
    /// follower's connection must close with the container all the same.
    @Test func theHistoryConnectionClosesWithTheContainerWhileTheFollowerIsStillHeld() throws {
        let directory = try StoreTemporaryDirectory()
        let path = directory.path("held.sqlite")
        var follower: HistoryFollower?
        do {
            let container = try PersistentContainer(schema: StoreTestSchema.make(), path: path)
            TestAnimal(context: container.viewContext).commonName = "Bat"
            try container.viewContext.save()
            follower = container.coordinator.follower
        }
        #expect(follower != nil)
        expectClosed(path)
        follower = nil
    }
}
