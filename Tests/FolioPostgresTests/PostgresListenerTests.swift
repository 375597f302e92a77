import CLibPQ
import Dispatch
import FolioLocking
import FolioPostgres
import FolioStore
import FolioTestSupport
import Foundation
import Synchronization
import Testing

/// The feed driven directly (no follower, no fallback poll): the
/// process's listening session, once ended, is opened again by the next
/// statement of a feed (this one's, whichever, or another container's),
/// listens and wakes for its catch-up read however the old session ended,
/// and a session lost during that catch-up read loses nothing.
@MainActor
@Suite(.serialized) struct PostgresListenerTests {
    final class Wakes: Sendable {
        let count = Atomic<Int>(0)
        var value: Int { count.load(ordering: .relaxed) }
    }

    /// Hands the feed to its queue's closures.
    struct OnQueue: @unchecked Sendable {  // the feed is used only on the test's queue
        let feed: PostgresChangeFeed
    }

    /// A feed on `uri` waking `wakes` on `queue`, registered at the newest position.
    func follow(_ uri: String, on queue: DispatchQueue, _ wakes: Wakes) throws -> (PostgresChangeFeed, Int64) {
        let feed = try PostgresChangeFeed(uri: uri, namespace: nil, reader: "listener-test")
        let position = try queue.sync {
            _ = feed.startWaking(on: queue) { wakes.count.add(1, ordering: .relaxed) }
            return try feed.register()
        }
        return (feed, position)
    }

    func insert(_ name: String, into container: PersistentContainer) throws -> ObjectID {
        let zoo = TestZoo(context: container.viewContext)
        zoo.name = name
        try container.viewContext.save()
        return zoo.objectID
    }

    /// Reads after `start` until every one of `ids` is among the rows read, as a follower
    /// does after each wake: a row marked the reader's `xmax` waits for a
    /// later transaction to end (see `PostgresHistory`), so the first read
    /// after its wake may not have it yet. Everything read, and the position reached.
    func readUntil(_ ids: Set<ObjectID>, after start: Int64, _ feed: PostgresChangeFeed, on queue: DispatchQueue) async -> (
        found: Set<ObjectID>, trimmed: Bool, latest: Int64
    ) {
        var found: Set<ObjectID> = [], trimmed = false, latest = start
        _ = await waitUntil(20) {
            guard let read = try? queue.sync(execute: { try feed.read(after: latest) }) else { return false }
            found.formUnion(inserted(read))
            trimmed = trimmed || read.trimmed
            latest = read.latest
            return found.isSuperset(of: ids)
        }
        return (found, trimmed, latest)
    }

    /// The object IDs a read's rows inserted.
    func inserted(_ read: HistoryRead) -> Set<ObjectID> {
        read.rows.reduce(into: []) { $0.formUnion($1.changes.inserted) }
    }

    @Test func everySessionListensAndCatchesUpWhoeverReconnects() async throws {
        let cluster = try await PostgresCluster.started()
        defer { cluster.destroy() }
        let uri = try await cluster.makeDatabase()
        let writer = try PersistentContainer(schema: StoreTestSchema.make(), store: .postgreSQL(uri))
        // This feed does not heartbeat as a follower would: the writer must not drop it as silent on a slow machine.
        writer.setReaderSilenceLimit(3600)
        let queue = DispatchQueue(label: "listener-test")
        let wakes = Wakes()
        let (feed, registered) = try follow(uri, on: queue, wakes)
        var position = registered
        // Each returns the position to read after: registering again records the reader at the newest one.
        let reconnects: [(String, () throws -> Int64?)] = [
            (
                "read",
                {
                    _ = try feed.read(after: position); return nil
                }
            ),
            (
                "acknowledge",
                {
                    try feed.acknowledge(position: position, silenceLimit: 3600); return nil
                }
            ),
            ("register", { try feed.register() }),
        ]
        for ending in ["terminated", "restarted"] {
            for (who, reconnect) in reconnects {
                let pid = queue.sync { feed.listenerProcessID }
                let before = wakes.value
                if ending == "restarted" {
                    try await cluster.restart()
                } else {
                    try await cluster.runSQL("SELECT pg_terminate_backend(\(pid), 10000)")
                }
                // Saved while nobody listens: only the catch-up read can find it.
                let missed = try insert("\(ending) \(who)", into: writer)
                // Each save retries once on a lost connection, so the writer is live again here.
                // The writer's own feed shares the listener and may have mended it first.
                let moved = try queue.sync { try reconnect() }
                // The statement mends the listener on its own queue, without waiting for it.
                #expect(
                    await waitUntil(20) { wakes.value > before }, "a session \(ending), then a statement (\(who)): a wake for the catch-up")
                #expect(await waitUntil(20) { ![0, pid].contains(queue.sync { feed.listenerProcessID }) }, "\(who) reconnected")
                if let moved {
                    let caughtUp = try queue.sync { try feed.read(after: moved) }
                    #expect(!caughtUp.trimmed)
                    position = caughtUp.latest
                } else {
                    let caughtUp = await readUntil([missed], after: position, feed, on: queue)
                    #expect(!caughtUp.trimmed)
                    #expect(caughtUp.found.contains(missed), "the catch-up read after \(ending)/\(who) finds the save")
                    position = caughtUp.latest
                }
                let heardBefore = wakes.value
                let later = try insert("after \(ending) \(who)", into: writer)
                #expect(
                    await waitUntil(20) { wakes.value > heardBefore }, "a save after \(ending)/\(who) is heard: the new session listens")
                let read = await readUntil([later], after: position, feed, on: queue)
                #expect(!read.trimmed)
                #expect(read.found == [later], "after \(ending)/\(who)")
                position = read.latest
            }
        }
        queue.sync { feed.close() }
    }

    /// The feed's catch-up read blocks on a lock and its session is ended
    /// meanwhile: the read, which only reads, runs again on a new session (or,
    /// where that fails too, fails as offline and the position stays), and
    /// the next read finds everything saved since; the process listens again.
    @Test func aSessionLostDuringTheCatchUpReadLosesNothing() async throws {
        let cluster = try await PostgresCluster.shared()
        let uri = try await cluster.makeDatabase()
        let database = PostgresCluster.databaseName(uri)
        let writer = try PersistentContainer(schema: StoreTestSchema.make(), store: .postgreSQL(uri))
        writer.setReaderSilenceLimit(3600)
        let queue = DispatchQueue(label: "listener-test")
        let wakes = Wakes()
        // Named, so its session is told apart from the writer's own feed. Its
        // statement timeout (30 s by default) must outlast the test's turns on a
        // loaded machine: the read is to end because its session ends, not by timing out.
        let (feed, position) = try follow(uri + "&application_name=catch-up&options=-c%20statement_timeout%3D3600000", on: queue, wakes)
        try await cluster.runSQL("SELECT pg_terminate_backend(\(queue.sync { feed.listenerProcessID }), 10000)")
        var saved: Set<ObjectID> = [try insert("while away", into: writer)]
        // The read takes the trim mark from folio_metadata: hold that table, so that it waits mid-read.
        let holder = try #require(PQconnectdb(uri))
        defer { PQfinish(holder) }
        #expect(PQstatus(holder) == CONNECTION_OK)
        PQclear(PQexec(holder, "BEGIN; LOCK TABLE folio_metadata IN ACCESS EXCLUSIVE MODE"))
        let outcome = LockedValue<Result<HistoryRead, any Error>?>(nil)
        let onQueue = OnQueue(feed: feed)
        queue.async {
            let result = Result { try onQueue.feed.read(after: position) }
            outcome.withLock { $0 = result }
        }
        let waiting =
            "SELECT pid FROM pg_stat_activity WHERE datname = '\(database)' AND application_name = 'catch-up (feed)' AND wait_event_type = 'Lock'"
        #expect(
            await waitUntil(30) { ((try? await cluster.runSQL(waiting)) ?? "").split(separator: "\n").count == 1 },
            "the catch-up read waits on the lock")
        saved.insert(try insert("during the read", into: writer))
        try await cluster.runSQL("SELECT pg_terminate_backend(pid, 10000) FROM (\(waiting)) w")
        PQclear(PQexec(holder, "ROLLBACK"))
        queue.sync {}
        // The read run again stops at the cluster's horizon, which another
        // database's open transaction can hold below these saves: what it did not
        // return must lie past the position it reached, never be skipped.
        var reached = position, found: Set<ObjectID> = []
        switch try #require(outcome.withLock { $0 }) {
        case .success(let read):
            found = inserted(read)
            #expect(found.isSubset(of: saved), "the read run again returns only these saves")
            reached = read.latest
        case .failure(StoreError.offline): break
        case .failure(let error): Issue.record("the read whose session ended should run again or fail as offline: \(error)")
        }
        let rest = saved.subtracting(found)
        let read = await readUntil(rest, after: reached, feed, on: queue)
        #expect(!read.trimmed)
        #expect(read.found == rest, "the next reads find every save the read run again did not, past the position it reached")
        let heardBefore = wakes.value
        let later = try insert("after", into: writer)
        #expect(await waitUntil(20) { wakes.value > heardBefore }, "the new session listens")
        #expect(await readUntil([later], after: read.latest, feed, on: queue).found == [later])
        queue.sync { feed.close() }
    }
}
