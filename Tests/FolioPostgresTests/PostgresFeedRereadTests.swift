import FolioLocking
import FolioStore
import FolioTestSupport
import Foundation
import Testing

@testable import FolioPostgres

/// A save's announcement wakes a feed when its row can be read; rows a
/// read finds committed past the horizon (held there by another writer's
/// open transaction, or marked one past the newest ended transaction) are
/// read again after a wait that grows while the horizon stays. A cluster
/// of its own: the tests need every transaction that ends to be one of their own.
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
    /// it ends, another save is heard through its wake and the short wait
    /// for its own rows, well before that long wait runs out (before, a
    /// reread scheduled later suppressed every earlier one, and the long
    /// wait held the save back).
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

        // A sooner reread stands in for the long wait, a later one does not (far off, so none runs meanwhile).
        let now = DispatchTime.now().uptimeNanoseconds, minute: UInt64 = 60_000_000_000
        let longWait = try #require(hub.state.withLock { $0.pendingRereadAt })
        #expect(longWait > now + 5 * minute, "the long wait is scheduled")
        hub.rereadPending(at: now + 2 * minute)
        hub.rereadPending(at: now + 3 * minute)
        #expect(hub.state.withLock { $0.pendingRereadAt } == now + 2 * minute, "the sooner reread stands in")

        // The first save's wake passes (a sleep, not a bound: were it too
        // short, its read would read the second save too).
        try await Task.sleep(for: .seconds(1))
        try held.execute("COMMIT")
        // The second save's rows wait as any new ones do: its reads may come before they can be read (a busy machine).
        hub.state.withLock { $0.pendingBackoff = usual }
        try Self.save(writer, rowID: 3, author: "second")
        // Well inside the wait: heard only through the second save's own wake and its short wait.
        #expect(
            await waitUntil(60) { heard.withLock { $0.contains(3) } },
            "the second save heard before the long wait ran out: \(heard.withLock { $0 })")
        #expect(heard.withLock { $0 } == [1, 2, 3], "each row once, in order: \(heard.withLock { $0 })")
        try elsewhere.execute("COMMIT")
    }
    /// A container's save is announced once its history row can be read,
    /// though another program's transaction stays open (as on a busy
    /// server): a listener reading at once finds it, with nothing left past
    /// the horizon. Before, the NOTIFY went with the save's own commit, when
    /// the row was marked one past the newest ended transaction: while any
    /// other transaction ran, every listener's first read found it
    /// unreadable, ended a transaction of its own and read again after a wait.
    @Test func aSavesAnnouncementComesWhenItsRowCanBeRead() async throws {
        let cluster = try await PostgresCluster.started()
        defer { cluster.destroy() }
        let uri = try await cluster.makeDatabase(prefix: "announce")
        let container = try PersistentContainer(schema: ConflictTestSchema.make(), store: .postgreSQL(uri))
        let listening = try PGConnection(uri: uri), reader = try PGConnection(uri: uri)
        try listening.execute("LISTEN \(PostgresServer.channel(Self.namespace))")
        try reader.execute("SET search_path TO \(Self.namespace)")
        let elsewhere = try PGConnection(uri: uri)
        try elsewhere.execute("CREATE TABLE public.elsewhere (x int); BEGIN; INSERT INTO public.elsewhere VALUES (1)")
        let context = container.newBackgroundContext()
        // A reader of the history, silent as long as it likes, so that the container's acknowledgements trim nothing it has to read.
        var position = try PostgresHistory.register(
            reader, reader: "announce-test", lockKey: PostgresLock.key(Self.namespace), waitMilliseconds: 5000)
        try reader.execute("UPDATE folio_readers SET silence = 1e9 WHERE reader = 'announce-test'")
        for i in 0..<20 {
            _ = listening.drainNotifications()
            // Committed when `perform` returns (a view context's save may still be waiting for the store).
            let saved = try await context.perform { c in
                let note = ConflictNote(context: c)
                note.title = "note \(i)"
                try c.save()
                return note.objectID
            }
            #expect(await waitUntil(30) { !(listening.drainNotifications() ?? []).isEmpty }, "save \(i) announced")
            let read = try PostgresHistory.readAll(reader, after: position)
            #expect(
                read.rows.contains { $0.changes.inserted.contains(saved) } && !read.pending,
                "save \(i): \(read.rows.count) rows read, rows left past the horizon: \(read.pending), trimmed: \(read.trimmed)")
            position = read.latest
        }
        try elsewhere.execute("COMMIT")
    }
}
