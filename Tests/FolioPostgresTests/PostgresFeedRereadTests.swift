import FolioLocking
import FolioStore
import FolioTestSupport
import Foundation
import Testing

@testable import FolioPostgres

/// A feed reads again soon after each wake, for a save whose row commits
/// just past the horizon (its mark is one past the newest transaction when
/// it commits). Those short rereads are what make another process's save
/// seen at once; rows held past the horizon by a long transaction elsewhere
/// are read again after a wait that grows. A cluster of its own: the test
/// needs every transaction that ends to be one of its own.
@MainActor
@Suite struct PostgresFeedRereadTests {
    /// The feed is read on its queue only; the test reads what it heard under the lock.
    private struct Reading: @unchecked Sendable {  // the feed is used on `queue` only, as a follower's is
        let feed: PostgresChangeFeed
    }

    static let namespace = "conflicts"

    /// Another client's save: its history row inserting `rowID` (which notifies at the commit), and its commit.
    static func save(_ c: PGConnection, rowID: Int64, author: String, commit: Bool = true) throws {
        let changes = ChangeSet(inserted: [ObjectID(entityName: "ConflictNote", rowID: rowID)]).historyText()
        let statements = [
            PGStatement("BEGIN"), PGStatement("SELECT pg_advisory_xact_lock_shared(\(PostgresLock.key(namespace)))"),
            try #require(PostgresBackend.historyStatement(changes, author: author, namespace: namespace)),
        ]
        _ = try c.pipeline(commit ? statements + [PGStatement("COMMIT")] : statements)
    }

    /// While a transaction elsewhere holds a row past the horizon, the
    /// wait before reading again grows (here made ten minutes long). Once
    /// it ends, another save is heard through its wake, the short rereads
    /// after it and the short wait for its own rows, well before that long
    /// wait runs out (before, a reread scheduled later suppressed every
    /// earlier one, and the long wait held the save back).
    @Test func aSaveIsHeardSoonWhileALongWaitForRowsPastTheHorizonIsScheduled() async throws {
        let cluster = try await PostgresCluster.started()
        defer { cluster.destroy() }
        let uri = try await cluster.makeDatabase(prefix: "reread")
        do { _ = try PersistentContainer(schema: ConflictTestSchema.make(), store: .postgreSQL(uri)) }
        let session = { () throws -> PGConnection in
            let c = try PGConnection(uri: uri)
            try c.execute("SET search_path TO \(Self.namespace)")
            return c
        }
        let feed = try PostgresChangeFeed(uri: uri, namespace: Self.namespace, reader: "reread-test")
        defer { feed.close() }
        let hub = PostgresFeedHub.shared(PostgresServer(uri: uri), namespace: Self.namespace, busyTimeoutMilliseconds: 5000)
        let wait: UInt64 = 600_000_000_000
        let usual = hub.state.withLock { $0.pendingBackoff }
        hub.state.withLock { $0.pendingBackoff = (first: wait, limit: wait) }
        let start = try feed.register()

        let heard = LockedValue<[Int64]>([])
        let queue = DispatchQueue(label: "reread-test")
        let reading = Reading(feed: feed)
        let position = LockedValue(start)
        _ = feed.startWaking(on: queue) {
            guard let read = try? reading.feed.read(after: position.withLock { $0 }), let last = read.rows.last else { return }
            position.withLock { $0 = last.position }
            heard.withLock { $0 += read.rows.flatMap { $0.changes.inserted.map(\.rowID) } }
        }

        // Another program's transaction stays open throughout, as on a busy
        // server: a row marked one past the newest transaction is then read
        // only after another ends (the read's own nudge), by a reread.
        let elsewhere = try PGConnection(uri: uri)
        try elsewhere.execute("CREATE TABLE public.elsewhere (x int); BEGIN; INSERT INTO public.elsewhere VALUES (1)")
        let held = try session(), writer = try session()
        try Self.save(held, rowID: 1, author: "held", commit: false)
        try Self.save(writer, rowID: 2, author: "first")
        #expect(await waitUntil(30) { hub.state.withLock { $0.pendingHorizon >= 0 } }, "the first save's row waits past the horizon")
        #expect(heard.withLock { $0.isEmpty }, "nothing read past the open transaction's row")

        // Rereads due before the long wait ends are scheduled, not suppressed by it (far off, so none runs meanwhile).
        let now = DispatchTime.now().uptimeNanoseconds, minute: UInt64 = 60_000_000_000
        let longWait = try #require(hub.state.withLock { $0.pendingRereadAt })
        #expect(longWait > now + 5 * minute, "the long wait is scheduled")
        hub.rereadSoon(after: [2 * minute])
        hub.rereadPending(at: now + minute)
        let scheduled = hub.state.withLock { ($0.rereads.keys.sorted(), $0.pendingRereadAt) }
        #expect(scheduled.0.contains { $0 >= now + 2 * minute && $0 < now + 3 * minute }, "\(scheduled)")
        #expect(scheduled.1.map { $0 >= now + minute && $0 < now + 2 * minute } == true, "the earlier wait stands in: \(scheduled)")
        #expect(scheduled.0.contains(longWait), "\(scheduled)")

        // The first save's wake and its short rereads pass (a sleep, not a
        // bound: were it too short, they would read the second save too).
        try await Task.sleep(for: .seconds(1))
        try held.execute("COMMIT")
        // The second save's rows wait as any new ones do: its reads may come before they can be read (a busy machine).
        hub.state.withLock { $0.pendingBackoff = usual }
        try Self.save(writer, rowID: 3, author: "second")
        // Well inside the wait: heard only through the second save's own wake and rereads.
        #expect(
            await waitUntil(60) { heard.withLock { $0.contains(3) } },
            "the second save heard before the long wait ran out: \(heard.withLock { $0 })")
        #expect(heard.withLock { $0 } == [1, 2, 3], "each row once, in order: \(heard.withLock { $0 })")
        try elsewhere.execute("COMMIT")
    }
}
