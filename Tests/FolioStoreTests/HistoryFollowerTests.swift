import FolioLocking
import FolioTestSupport
import Foundation
import Testing

@testable import FolioStore

/// The follower turns each read of the history into one change set.
@MainActor
@Suite struct HistoryFollowerTests {
    @Test func oneReadsRowsReachObserversAsOneMergedChangeSet() async throws {
        let dir = try StoreTemporaryDirectory()
        let path = dir.path("merged.sqlite")
        let theirs = try PersistentContainer(schema: StoreTestSchema.make(), path: path, pollInterval: 3600)
        let c = theirs.viewContext
        // A reader registered now keeps the rows until it has read them.
        let backend = try SQLiteBackend(path: path, busyTimeoutMilliseconds: 1000)
        let feed = try #require(try backend.makeChangeFeed(reader: UUID().uuidString))
        let start = try feed.register()
        let doomed = TestAnimal(context: c)
        doomed.commonName = "Doomed"
        try c.save()
        let kept = TestAnimal(context: c)
        kept.commonName = "Tapir"
        try c.save()
        kept.commonName = "Mountain Tapir"
        let born = TestAnimal(context: c)
        born.commonName = "Okapi"
        c.delete(doomed)
        try c.save()

        // A follower that has read nothing since `start` finds the three rows in one read.
        let delivered = LockedValue<[ChangeSet]>([])
        let follower = HistoryFollower(feed: feed, registeredAt: start) { changes, _ in delivered.withLock { $0.append(changes) } }
        follower.start(fallbackInterval: 3600)
        follower.pollNow()
        let sets = delivered.withLock { $0 }
        #expect(sets.count == 1, "\(sets)")
        #expect(sets.first?.inserted == [kept.objectID, born.objectID])
        #expect(sets.first?.deleted == [doomed.objectID])
        #expect(sets.first?.updated.isEmpty == true, "an update of an object inserted in the same read is part of its insert")
        #expect(sets.first?.origin == .otherProcess)
        follower.stop()
    }

    @Test func mergingKeepsWhatAnObserverNeeds() {
        let a = ObjectID(entityName: "A", rowID: 1), b = ObjectID(entityName: "A", rowID: 2), c = ObjectID(entityName: "A", rowID: 3)
        let first = ChangeSet(inserted: [a], updated: [b: ["x"]], origin: .otherProcess)
        let second = ChangeSet(inserted: [c], updated: [a: ["y"], b: ["z"]], deleted: [a], origin: .otherProcess)
        let both = first.merged(with: second)
        #expect(both.inserted == [c])
        #expect(both.deleted == [a], "deleted after its insert: reported as deleted")
        #expect(both.updated == [b: ["x", "z"]])
        #expect(first.merged(with: .reload(origin: .otherProcess)).isReload)
        #expect(!ChangeSet.reload(origin: .otherProcess).isEmpty)
    }
}
