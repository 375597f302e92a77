import Dispatch
import FolioStore
import FolioTestSupport
import Foundation
import Synchronization
import Testing

@testable import FolioPostgres

/// A feed's read never waits for the process's listening session to
/// open again: while the server lets no new session in (its postmaster
/// stopped here, as a stuck or half-restarted server does), the listener
/// waits, and reads go on over the working connections already open.
@MainActor
@Suite(.serialized) struct PostgresListenerWaitTests {
    @Test func aReadDoesNotWaitForTheListenersNewSession() async throws {
        let cluster = try await PostgresCluster.started()
        defer { cluster.destroy() }
        let uri = try await cluster.makeDatabase()
        _ = try PersistentContainer(schema: StoreTestSchema.make(), store: .postgreSQL(uri))
        let queue = DispatchQueue(label: "listener-wait-test")
        let feed = try PostgresChangeFeed(uri: uri, namespace: nil, reader: "listener-wait-test")
        let start = try queue.sync {
            _ = feed.startWaking(on: queue) {}
            return try feed.register()
        }
        _ = try queue.sync { try feed.read(after: start) }
        #expect(await waitUntil(30) { queue.sync { feed.listenerProcessID } != 0 }, "the process listens")
        let listener = queue.sync { feed.listenerProcessID }
        // A session of the test's own, opened before the server stops letting sessions in.
        let control = try PGConnection(uri: uri)
        let text = try String(contentsOfFile: cluster.directory + "/data/postmaster.pid", encoding: .utf8)
        let postmaster = try #require(text.split(separator: "\n").first.flatMap { pid_t($0) })
        #expect(kill(postmaster, SIGSTOP) == 0)
        var resumed = false
        func resume() {
            if !resumed { _ = kill(postmaster, SIGCONT) }
            resumed = true
        }
        defer { resume() }
        try control.query("SELECT pg_terminate_backend($1::int)", [.integer(Int64(listener))])
        func serverHas(_ pid: Int32) -> Bool {
            (try? control.scalar("SELECT count(*) FROM pg_stat_activity WHERE pid = $1::int", [.integer(Int64(pid))])) != .integer(0)
        }
        #expect(await waitUntil(60) { !serverHas(listener) }, "the listening session's server process ended")
        #expect(await waitUntil(60) { queue.sync { feed.listenerProcessID } != listener }, "the process saw its listening session end")

        let returned = Atomic<Bool>(false)
        let onQueue = OnQueue(feed: feed)
        queue.async {
            _ = try? onQueue.feed.read(after: start)
            returned.store(true, ordering: .relaxed)
        }
        #expect(await waitUntil(20) { returned.load(ordering: .relaxed) }, "the read returned while no session could open")
        resume()
        #expect(await waitUntil(60) { returned.load(ordering: .relaxed) })
        // Back: the next statement's mending opens the listening session again.
        #expect(
            await waitUntil(60) {
                _ = try? queue.sync { try feed.read(after: start) }
                return queue.sync { feed.listenerProcessID } != 0
            }, "the process listens again")
        queue.sync { feed.close() }
        control.close()
    }

    /// The listening session ends while the listener is busy: the
    /// server's farewell and the end of the connection arrive together,
    /// and the listener still sees the session end by itself (before any
    /// statement mends it), so every feed hears of it at once.
    @Test func theListenerSeesItsSessionEndWhenItsFarewellAndItsEndComeTogether() async throws {
        let cluster = try await PostgresCluster.shared()
        let uri = try await cluster.makeDatabase()
        let listener = PostgresListener.shared(PostgresServer(uri: uri))
        let gate = DispatchSemaphore(value: 0)
        let holding = Atomic<Bool>(false)
        // The first notification holds the listener's queue until the gate opens.
        let id = listener.follow(channel: "folio_hold") { payloads in
            if payloads != nil, !holding.exchange(true, ordering: .relaxed) { gate.wait() }
        }
        defer { listener.unfollow(id) }
        let pid = listener.processID.load(ordering: .relaxed)
        #expect(pid != 0, "following opened the listening session")
        try await cluster.runSQL("NOTIFY folio_hold, 'hold'", database: PostgresCluster.databaseName(uri))
        #expect(await waitUntil(30) { holding.load(ordering: .relaxed) }, "the listener's queue is held")
        // Returns once the server process is gone: its farewell and the closed socket both wait unread.
        try await cluster.runSQL("SELECT pg_terminate_backend(\(pid), 10000)")
        gate.signal()
        #expect(await waitUntil(30) { listener.processID.load(ordering: .relaxed) != pid }, "the listener saw its session end")
    }

    /// Hands the feed to its queue's closures.
    struct OnQueue: @unchecked Sendable {  // the feed is used only on the test's queue
        let feed: PostgresChangeFeed
    }
}
