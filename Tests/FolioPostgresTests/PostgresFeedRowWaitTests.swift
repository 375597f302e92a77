import FolioStore
import FolioTestSupport
import Foundation
import Testing

@testable import FolioPostgres

/// On a busy server rows always wait past the server's horizon (the
/// oldest transaction running) a moment. A feed reads the lock table for
/// the namespace's own horizon only for a row that has waited there
/// ``PostgresFeedHub/rowWaitLimit`` (a long transaction elsewhere holds
/// it), or when asked for everything committed; before, every read that
/// found a row waiting did, and reading the lock table takes every lock
/// partition, which each save's lock then waits for. A cluster of its own:
/// the namespace's horizon counts transactions that end, and only the
/// test's may.
@MainActor
@Suite struct PostgresFeedRowWaitTests {
    @Test func aReadAsksTheLockTableOnlyForARowThatWaited() async throws {
        let cluster = try await PostgresCluster.started()
        defer { cluster.destroy() }
        let uri = try await cluster.makeDatabase(prefix: "rowwait")
        do { _ = try PersistentContainer(schema: ConflictTestSchema.make(), store: .postgreSQL(uri)) }
        let namespace = PostgresFeedRereadTests.namespace
        let reader = try PGConnection(uri: uri), writer = try PGConnection(uri: uri)
        for c in [reader, writer] { try c.execute("SET search_path TO \(namespace)") }
        let start = try PostgresHistory.register(
            reader, reader: "row-wait-test", lockKey: PostgresLock.key(namespace), waitMilliseconds: 5000)

        // Another program's transaction holds the server's horizon; a save commits past it.
        let elsewhere = try PGConnection(uri: uri)
        try elsewhere.execute("CREATE TABLE public.elsewhere (x int); BEGIN; INSERT INTO public.elsewhere VALUES (1)")
        try PostgresFeedRereadTests.save(writer, rowID: 1, author: "writer")
        let saved = ObjectID(entityName: "ConflictNote", rowID: 1)

        let unasked = try PostgresHistory.readAll(reader, after: start, waited: -1)
        #expect(unasked.rows.isEmpty && unasked.pending, "no row noted as waiting: the server's horizon, \(unasked.rows.count) rows read")
        #expect(unasked.newest > unasked.latest)
        let passed = try PostgresHistory.readAll(reader, after: start, waited: unasked.latest)
        #expect(passed.rows.isEmpty && passed.pending, "the row noted was passed: the server's horizon, \(passed.rows.count) rows read")
        // A row marked the newest snapshot's end is read once a later transaction ends (each read ends one then).
        let waited = try await readUntilFound(saved) { try PostgresHistory.readAll(reader, after: start, waited: unasked.newest) }
        #expect(waited, "the row that waited is read past the server's horizon")
        let everything = try await readUntilFound(saved) { try PostgresHistory.readAll(reader, after: start) }
        #expect(everything, "a read for everything committed reads it too")
        try elsewhere.execute("COMMIT")
    }

    /// Through a process's hub: a feed's first read finds a save held back
    /// by a transaction elsewhere, a later one reads it once it waited
    /// (that transaction still open), and a read asking for everything
    /// committed finds the next save at once.
    @Test func aFeedReadsARowHeldByATransactionElsewhereOnceItWaited() async throws {
        let cluster = try await PostgresCluster.started()
        defer { cluster.destroy() }
        let uri = try await cluster.makeDatabase(prefix: "rowwaitfeed")
        do { _ = try PersistentContainer(schema: ConflictTestSchema.make(), store: .postgreSQL(uri)) }
        let namespace = PostgresFeedRereadTests.namespace
        let writer = try PGConnection(uri: uri)
        try writer.execute("SET search_path TO \(namespace)")
        let feed = try PostgresChangeFeed(uri: uri, namespace: namespace, reader: "row-wait-feed")
        defer { feed.close() }
        var position = try feed.register()

        let elsewhere = try PGConnection(uri: uri)
        try elsewhere.execute("CREATE TABLE public.elsewhere (x int); BEGIN; INSERT INTO public.elsewhere VALUES (1)")
        try PostgresFeedRereadTests.save(writer, rowID: 7, author: "writer")
        let first = try feed.read(after: position)
        #expect(first.rows.isEmpty, "the first read is at the server's horizon: \(first.rows.count) rows")
        let waited = try await readUntilFound(ObjectID(entityName: "ConflictNote", rowID: 7)) { try feed.read(after: position) }
        #expect(waited, "the row is read once it waited, the transaction elsewhere still open")
        position = try feed.read(after: position).latest

        try PostgresFeedRereadTests.save(writer, rowID: 8, author: "writer")
        // No sleep between: a row marked the newest snapshot's end is read once the read's own nudge ended a transaction.
        var found = false
        for _ in 0..<3 where !found {
            found = try feed.read(after: position, fresh: true).inserted.contains(ObjectID(entityName: "ConflictNote", rowID: 8))
        }
        #expect(found, "a read for everything committed finds the next save at once")
        try elsewhere.execute("COMMIT")
    }

    @Test func aRowIsNotedWaitingUntilAReadPassesIt() {
        let limit = PostgresFeedHub.rowWaitLimit
        var s = PostgresFeedHub.State()
        #expect(s.waitedBound(now: 10 * limit) == -1, "none noted")
        s.noteWaiting(pending: true, newest: 50, horizon: 40, now: limit)
        #expect(s.waitedBound(now: 2 * limit - 1) == -1, "not yet waited long")
        #expect(s.waitedBound(now: 2 * limit) == 50)
        s.noteWaiting(pending: true, newest: 60, horizon: 45, now: 3 * limit)
        #expect(s.waitedBound(now: 3 * limit) == 50, "still waiting: the older row, since it was first found")
        s.noteWaiting(pending: true, newest: 70, horizon: 55, now: 4 * limit)
        #expect(s.waitedBound(now: 5 * limit - 1) == -1, "passed: the newest waiting row starts its wait")
        #expect(s.waitedBound(now: 5 * limit) == 70)
        s.exactReadAsked = true
        #expect(s.waitedBound(now: 4 * limit) == .max, "asked for everything")
        #expect(s.waitedBound(now: 4 * limit) == -1, "once")
        s.noteWaiting(pending: false, newest: 70, horizon: 70, now: 6 * limit)
        #expect(s.waitedBound(now: 10 * limit) == -1, "nothing waits")
    }

    /// Reads until the rows include `id` (true) or 10 s pass.
    private func readUntilFound(_ id: ObjectID, _ read: () throws -> some HistoryRows) async throws -> Bool {
        for _ in 0..<1000 {
            if try read().inserted.contains(id) { return true }
            try await Task.sleep(for: .milliseconds(10))
        }
        return false
    }
}

/// The inserted objects of a read, whichever kind.
private protocol HistoryRows {
    var inserted: Set<ObjectID> { get }
}

extension PostgresHistory.Rows: HistoryRows {
    var inserted: Set<ObjectID> { rows.reduce(into: []) { $0.formUnion($1.changes.inserted) } }
}

extension HistoryRead: HistoryRows {
    var inserted: Set<ObjectID> { rows.reduce(into: []) { $0.formUnion($1.changes.inserted) } }
}
