import Dispatch
import FolioLocking
import FolioStore
import FolioTestSupport
import Foundation
import Testing

@testable import FolioPostgres

/// The feeds of one process write their positions together, one such
/// write at a time; a position noted while one is under way is written after it.
@MainActor
@Suite struct PostgresFeedAcknowledgementTests {
    /// One feed's acknowledgement waits for a working connection (every
    /// one lent out) after it took the positions; another feed's, asked for
    /// meanwhile, is written once the first ends (before, it was dropped:
    /// its caller was told it went, and the server kept the old position).
    @Test func aPositionNotedWhileAnAcknowledgementIsUnderWayIsWrittenAfterIt() async throws {
        let cluster = try await PostgresCluster.shared()
        let uri = try await cluster.makeDatabase(prefix: "acks")
        do { _ = try PersistentContainer(schema: ConflictTestSchema.make(), store: .postgreSQL(uri)) }
        let first = try PostgresChangeFeed(uri: uri, namespace: "conflicts", reader: "first")
        let second = try PostgresChangeFeed(uri: uri, namespace: "conflicts", reader: "second")
        defer {
            first.close()
            second.close()
        }
        let start = max(try first.register(), try second.register())
        let hub = PostgresFeedHub.shared(PostgresServer(uri: uri), namespace: "conflicts", busyTimeoutMilliseconds: 5000)

        // Every working connection of the hub lent out until the gate opens, each
        // on a thread of its own: pool threads held so would starve the tests beside this one.
        let gate = DispatchSemaphore(value: 0), lent = LockedValue(0)
        for _ in 0..<PostgresPool.capacity {
            Thread {
                try? hub.pool.with { _ in
                    lent.withLock { $0 += 1 }
                    gate.wait()
                }
            }.start()
        }
        #expect(await waitUntil(30) { lent.withLock { $0 } == PostgresPool.capacity })
        let firstFeed = Unchecked(first)
        let acknowledging = Task { try await BlockingWork.run { try firstFeed.value.acknowledge(position: start + 1, silenceLimit: 60) } }
        #expect(await waitUntil(30) { hub.state.withLock { $0.lastAcknowledgement } != 0 }, "the first feed's acknowledgement began")
        try second.acknowledge(position: start + 2, silenceLimit: 60)
        // Past the spacing, so the second's scheduled write comes while the first waits
        // (a sleep, not a bound: were it too short, the second would be written anyway).
        try await Task.sleep(for: .seconds(1))
        for _ in 0..<PostgresPool.capacity { gate.signal() }
        try await acknowledging.value

        let reader = try PGConnection(uri: uri)
        func position(_ name: String) -> Int64? {
            let sql = "SELECT position FROM conflicts.folio_readers WHERE reader = $1"
            guard case .integer(let p)? = try? reader.scalar(sql, [.text(name)]) else { return nil }
            return p
        }
        #expect(await waitUntil(30) { position("second") == start + 2 }, "the second position written: \(position("second") as Any)")
        #expect(position("first") == start + 1)
    }

    /// Each reader is dropped by its own silence limit, whoever acknowledges:
    /// a replica may stay away ten minutes though a plain container, a minute's
    /// limit, acknowledges meanwhile. A reader without one (registered by an
    /// older build) is held to the acknowledging reader's.
    @Test func aReaderIsDroppedByItsOwnSilenceLimitWhoeverAcknowledges() async throws {
        let cluster = try await PostgresCluster.shared()
        let uri = try await cluster.makeDatabase(prefix: "silence")
        do { _ = try PersistentContainer(schema: StoreTestSchema.make(), store: .postgreSQL(uri)) }
        let c = try PGConnection(uri: uri)
        let now = Date().timeIntervalSince1970
        // Each silent for two minutes now.
        for (reader, silence) in [("ten minutes", "600"), ("thirty seconds", "30"), ("no limit kept", "NULL")] {
            try c.query(
                "INSERT INTO folio_readers (reader, position, seen, silence) VALUES ($1, 0, $2, \(silence))",
                [.text(reader), .real(now - 120)])
        }
        try PostgresHistory.acknowledge(c, reader: "plain", position: 0, silenceLimit: 60)
        let left = try c.query("SELECT reader FROM folio_readers ORDER BY reader")
        #expect((0..<left.rowCount).map { left.value(row: $0, column: 0) } == [.text("plain"), .text("ten minutes")])
        // An acknowledgement says again how long its reader may be silent.
        #expect(try c.scalar("SELECT silence FROM folio_readers WHERE reader = 'plain'") == .real(60))
    }

    /// A store made before readers kept their limits gains the column at its
    /// next open, and its readers are then held to their own limits.
    @Test func aStoreMadeBeforeReaderLimitsGainsThemAtItsNextOpen() async throws {
        let cluster = try await PostgresCluster.shared()
        let uri = try await cluster.makeDatabase(prefix: "silence")
        do { _ = try PersistentContainer(schema: StoreTestSchema.make(), store: .postgreSQL(uri)) }
        let c = try PGConnection(uri: uri)
        // As a build before left it: no column, and that build's mark of what it prepared.
        try c.execute(
            "ALTER TABLE folio_readers DROP COLUMN silence; UPDATE folio_metadata SET value = 'an older build' WHERE key = 'prepared'")
        do { _ = try PersistentContainer(schema: StoreTestSchema.make(), store: .postgreSQL(uri)) }
        try c.query(
            "INSERT INTO folio_readers (reader, position, seen, silence) VALUES ('replica', 0, $1, 600)",
            [.real(Date().timeIntervalSince1970 - 120)])
        try PostgresHistory.acknowledge(c, reader: "plain", position: 0, silenceLimit: 60)
        #expect(try c.scalar("SELECT count(*) FROM folio_readers WHERE reader = 'replica'") == .integer(1))
    }
}

private struct Unchecked<Value>: @unchecked Sendable {  // the receiving task is the value's only user meanwhile
    let value: Value
    init(_ value: Value) { self.value = value }
}
