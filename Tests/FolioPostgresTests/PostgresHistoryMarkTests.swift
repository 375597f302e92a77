import FolioLocking
import FolioStore
import FolioTestSupport
import Foundation
import Testing

@testable import FolioPostgres

/// History rows are written with no lock and commit out of position order;
/// a reader passes a position only once nothing can still commit below it.
/// Each test holds another client's transaction open at a chosen point.
@MainActor
@Suite struct PostgresHistoryMarkTests {
    let cluster: PostgresCluster
    let uri: String
    var database: String { PostgresCluster.databaseName(uri) }

    init() async throws {
        cluster = try await PostgresCluster.shared()
        uri = try await cluster.makeDatabase(prefix: "marks")
    }

    func open() throws -> PersistentContainer {
        try PersistentContainer(schema: ConflictTestSchema.make(), store: .postgreSQL(uri))
    }

    /// A session of another program, with no statement timeout: it waits for a row as long as the
    /// test holds it (on a loaded machine the test may take over 30 s to see it waiting).
    func otherClient() throws -> PGConnection {
        let connection = try PGConnection(uri: uri, statementTimeoutMilliseconds: nil)
        try connection.execute("SET search_path TO conflicts")
        return connection
    }

    func sql(_ text: String) async -> String {
        ((try? await cluster.runSQL(text, database: database)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A save's start: its transaction, holding the namespace's write lock shared, as every writer of history does.
    var begin: [PGStatement] {
        [PGStatement("BEGIN"), PGStatement("SELECT pg_advisory_xact_lock_shared(\(PostgresLock.key("conflicts")))")]
    }

    func row(_ author: String) throws -> PGStatement {
        let changes = ChangeSet(inserted: [ObjectID(entityName: "ConflictNote", rowID: 1)]).historyText()
        return try #require(PostgresBackend.historyStatement(changes, author: author, namespace: "conflicts"))
    }

    /// Reads from `position` until a read finds nothing (the feed's window asked afresh each time).
    func readAll(_ feed: PostgresChangeFeed, after position: inout Int64) throws -> [String] {
        var authors: [String] = []
        while true {
            let read = try feed.read(after: position, fresh: true)
            #expect(!read.trimmed)
            guard let last = read.rows.last?.position else { return authors }
            position = last
            let rows = try PGConnection(uri: uri).query(
                "SELECT author FROM conflicts.folio_history WHERE position = ANY($1::bigint[]) ORDER BY position, seq",
                [.text("{" + read.rows.map { String($0.position) }.joined(separator: ",") + "}")])
            authors += (0..<rows.rowCount).compactMap { if case .text(let a) = rows.value(row: $0, column: 0) { a } else { nil } }
        }
    }

    /// A later row commits while an earlier one is still open: a reader
    /// does not pass the earlier one's place, and reads each once when it commits.
    @Test func aRowCommittedOutOfPositionOrderIsNeitherSkippedNorReadTwice() async throws {
        _ = try open()
        let feed = try PostgresChangeFeed(uri: uri, namespace: "conflicts", reader: "marks-test")
        var position = try feed.register()
        let earlier = try otherClient(), later = try otherClient()
        _ = try earlier.pipeline(begin + [try row("earlier")])
        let laterRow = MarkUnchecked((later, begin + [try row("later"), PGStatement("COMMIT")]))
        // On a thread of its own: it waits on the server, and a pool thread held so can starve the tests beside it.
        let committed = Task {
            try await BlockingWork.run {
                let (connection, statements) = laterRow.value
                _ = try connection.pipeline(statements)
            }
        }
        #expect(
            await waitUntil(30) { await sql("SELECT count(*) FROM conflicts.folio_history") == "1" },
            "the later row commits while the earlier one is open")
        var authors = try readAll(feed, after: &position)
        #expect(authors.isEmpty, "nothing is read past a row that may still commit: \(authors)")
        try earlier.execute("COMMIT")
        try await committed.value
        authors += try readAll(feed, after: &position)
        #expect(authors.sorted() == ["earlier", "later"], "each row read once: \(authors)")
        feed.close()
    }

    /// A save waiting for another's row lock draws its transaction ID first
    /// and commits after it: it is read after it, once.
    @Test func aSaveThatWaitedForAnothersRowIsReadAfterItThoughItsTransactionBeganFirst() async throws {
        let container = try open()
        let note = ConflictNote(context: container.viewContext)
        note.title = "shared"
        try container.viewContext.save()
        let id = note.objectID.rowID
        let feed = try PostgresChangeFeed(uri: uri, namespace: "conflicts", reader: "marks-test")
        var position = try feed.register()
        let first = try otherClient(), second = try otherClient()
        // The second transaction's ID comes first.
        _ = try second.pipeline(begin + [PGStatement("SELECT pg_current_xact_id()")])
        _ = try first.pipeline(
            begin + [
                PGStatement("UPDATE \"ConflictNote\" SET title = 'first' WHERE id = \(id)"), try row("first"),
            ])
        let secondWrites = MarkUnchecked((second, try row("second"), id))
        let waiting = Task {
            try await BlockingWork.run {
                let (connection, statement, id) = secondWrites.value
                _ = try connection.pipeline([
                    PGStatement("UPDATE \"ConflictNote\" SET title = 'second' WHERE id = \(id)"), statement, PGStatement("COMMIT"),
                ])
            }
        }
        let waiters = "SELECT count(*) FROM pg_stat_activity WHERE datname = '\(database)' AND wait_event_type = 'Lock'"
        #expect(await waitUntil(30) { await sql(waiters) == "1" }, "the second waits for the row")
        try first.execute("COMMIT")
        try await waiting.value
        let authors = try readAll(feed, after: &position)
        #expect(authors == ["first", "second"], "read in commit order, once each: \(authors)")
        feed.close()
    }

    /// A transaction elsewhere holding its ID open (another program's, idle
    /// in transaction) keeps the server's horizon back, not the namespace's:
    /// a save is still heard while it stays open.
    @Test func anOpenTransactionElsewhereHoldsNoFeedBack() async throws {
        let writer = try open(), watcher = try open()
        let elsewhere = try PGConnection(uri: uri)
        try elsewhere.execute("CREATE TABLE public.elsewhere (x int); BEGIN; INSERT INTO public.elsewhere VALUES (1)")
        let heard = LockedValue<Set<ObjectID>>([])
        let token = watcher.viewContext.observeChanges { changes in
            guard changes.origin == .otherProcess else { return }
            heard.withLock { $0.formUnion(changes.inserted) }
        }
        let note = ConflictNote(context: writer.viewContext)
        note.title = "while another transaction is open"
        try writer.viewContext.save()
        let id = note.objectID
        #expect(await waitUntil(30) { heard.withLock { $0.contains(id) } }, "heard while the other transaction is open")
        try elsewhere.execute("COMMIT")
        withExtendedLifetime(token) {}
    }

    /// Saves of one process close together share a notification, and a
    /// watcher in the same process still hears every save once.
    @Test func closeSavesShareANotificationAndEachIsHeardOnce() async throws {
        let writer = try open(), watcher = try open()
        let listening = try PGConnection(uri: uri)
        try listening.execute("LISTEN \(PostgresServer.channel("conflicts"))")
        let heard = LockedValue<[ObjectID: Int]>([:])
        let token = watcher.viewContext.observeChanges { changes in
            guard changes.origin == .otherProcess else { return }
            heard.withLock { for id in changes.inserted { $0[id, default: 0] += 1 } }
        }
        let tasks = 8, each = 12
        let saving = (0..<tasks).map { t in
            let context = writer.newBackgroundContext()
            return Task {
                try await context.perform { c -> [ObjectID] in
                    try (0..<each).map { i in
                        let note = ConflictNote(context: c)
                        note.title = "task \(t) save \(i)"
                        try c.save()
                        return note.objectID
                    }
                }
            }
        }
        var saved: Set<ObjectID> = []
        for task in saving { saved.formUnion(try await task.value) }
        #expect(
            await waitUntil(30) { heard.withLock { Set($0.keys) == saved } },
            "heard \(heard.withLock { $0.count }) of \(saved.count)")
        var notifications = 0
        #expect(
            await waitUntil(30) {
                notifications += listening.drainNotifications()?.count ?? 0
                return notifications > 0
            })
        try await Task.sleep(for: .milliseconds(100))
        notifications += listening.drainNotifications()?.count ?? 0
        #expect(notifications < saved.count, "\(notifications) notifications for \(saved.count) saves")
        #expect(heard.withLock { $0.values.allSatisfy { $0 == 1 } }, "each save heard once")
        withExtendedLifetime(token) {}
    }
}

private struct MarkUnchecked<Value>: @unchecked Sendable {  // the receiving task is the value's only user
    let value: Value
    init(_ value: Value) { self.value = value }
}
