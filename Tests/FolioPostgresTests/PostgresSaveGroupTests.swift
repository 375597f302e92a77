import FolioStore
import FolioTestSupport
import Foundation
import Testing

@testable import FolioPostgres

/// Saves that a process's containers make while another group of theirs is
/// on the server go together, as one transaction (see `PostgresSaveGroup`).
/// Each test holds the namespace's write lock from another client, so the
/// first save waits on the server while the rest gather behind it, and
/// gives the group a patience longer than the test: no save leads a group
/// of its own meanwhile. (`PostgresConcurrentSaveTests` shows that with the
/// usual patience a save held by another client's row lock holds up no other.)
@MainActor
@Suite struct PostgresSaveGroupTests {
    let cluster: PostgresCluster
    let uri: String
    let namespace = PostgresFeedRereadTests.namespace

    init() async throws {
        cluster = try await PostgresCluster.shared()
        uri = try await cluster.makeDatabase(prefix: "group")
        PostgresSaveGroup.shared(PostgresServer(uri: uri), namespace: namespace).setPatience(3_600_000_000_000)
    }

    func open() throws -> PersistentContainer {
        try PersistentContainer(schema: ConflictTestSchema.make(), store: .postgreSQL(uri), busyTimeout: 600)
    }

    /// Another client holding the namespace's write lock, as a write transaction does, until it lets go.
    func holdWriteLock() throws -> PGConnection {
        let holder = try PGConnection(uri: uri)
        try holder.execute("SELECT pg_advisory_lock(\(PostgresLock.key(namespace)))")
        return holder
    }

    /// Saves `change` in a background context of `container`, off the main actor.
    func saving(_ container: PersistentContainer, _ change: @escaping @Sendable (ObjectContext) throws -> Void) -> Task<Void, any Error> {
        let context = container.newBackgroundContext()
        return Task { try await context.perform { c in try change(c) } }
    }

    /// Waits until a save's group waits on the server for the write lock
    /// (its shared lock, not a feed registering, which takes it exclusively).
    func waitForLockWaiter(_ holder: PGConnection) async -> Bool {
        let sql = """
            SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'
              AND query LIKE '%pg_advisory_xact_lock_shared%'
            """
        return await waitUntil(60) { (try? holder.scalar(sql)) == .integer(1) }
    }

    /// Waits until `count` saves of this process wait for a group.
    func waitForWaitingSaves(_ count: Int) async -> Bool {
        let group = PostgresSaveGroup.shared(PostgresServer(uri: uri), namespace: namespace)
        return await waitUntil(60) { group.waitingCount == count }
    }

    /// The transaction IDs of the newest `count` history rows, oldest first.
    func historyTransactions(_ count: Int) throws -> [String] {
        let c = try PGConnection(uri: uri)
        let r = try c.query("SELECT xmin::text FROM \(namespace).folio_history ORDER BY seq DESC LIMIT \(count)")
        return (0..<r.rowCount).reversed().map { "\(r.value(row: $0, column: 0))" }
    }

    @Test func savesMadeWhileAGroupIsOnTheServerCommitTogetherAndAreEachHeardOnce() async throws {
        let writers = try (0..<6).map { _ in try open() }, watcher = try open()
        var heard: [ObjectID] = []
        let token = watcher.viewContext.observeChanges { changes in
            guard changes.origin == .otherProcess else { return }
            heard += changes.inserted.sorted()
        }
        // A reader that never reads keeps every history row: which transaction wrote each is read at the end.
        try PGConnection(uri: uri).execute(
            "INSERT INTO \(namespace).folio_readers (reader, position, seen, silence) VALUES ('paused', 0, extract(epoch FROM now()), 1e9)")
        let holder = try holdWriteLock()
        let first = saving(writers[0]) { c in
            ConflictNote(context: c).title = "first"
            try c.save()
        }
        #expect(await waitForLockWaiter(holder), "the first save's group waits for the lock")
        let rest = writers.dropFirst().enumerated().map { n, writer in
            saving(writer) { c in
                ConflictNote(context: c).title = "note \(n)"
                try c.save()
            }
        }
        #expect(await waitForWaitingSaves(5), "the other five saves wait for the first's group")
        try holder.execute("SELECT pg_advisory_unlock_all()")
        try await first.value
        for save in rest { try await save.value }

        let transactions = try historyTransactions(6)
        #expect(Set(transactions).count == 2, "the first save alone, then the five together: \(transactions)")
        #expect(await waitUntil(30) { heard.count >= 6 })
        try await Task.sleep(for: .milliseconds(200))
        #expect(heard.count == 6 && Set(heard).count == 6, "each save heard once: \(heard)")
        withExtendedLifetime(token) {}
    }

    @Test func aConflictInAGroupFailsItsOwnSaveAndNoOther() async throws {
        let a = try open(), c = try open(), pilot = try open()
        let note = ConflictNote(context: a.viewContext)
        note.title = "base"
        try a.viewContext.save()
        let id = note.objectID

        let holder = try holdWriteLock()
        let leader = saving(pilot) { context in
            ConflictNote(context: context).title = "pilot"
            try context.save()
        }
        #expect(await waitForLockWaiter(holder), "the first save's group waits for the lock")
        let conflicting = saving(a) { context in
            try #require(try context.existingObject(with: id) as? ConflictNote).title = "mine"
            try context.save()
        }
        let unrelated = saving(c) { context in
            ConflictNote(context: context).title = "unrelated"
            try context.save()
        }
        #expect(await waitForWaitingSaves(2), "the two saves wait together")
        // Another client changes the note meanwhile: the waiting write is stale.
        let other = try PGConnection(uri: uri)
        try other.execute(
            """
            UPDATE \(namespace)."ConflictNote" SET title = 'theirs', \(RowVersion.column) = \(RowVersion.column) + 1 WHERE id = \(id.rowID)
            """)
        try holder.execute("SELECT pg_advisory_unlock_all()")
        try await leader.value
        try await unrelated.value
        await #expect(
            throws: StoreError.conflict([
                SaveConflict(
                    entity: "ConflictNote", id: id.rowID, kind: .changed,
                    keys: [.init(key: "title", stored: .text("theirs"), context: .text("mine"))])
            ])
        ) { try await conflicting.value }

        let check = try open()
        let titles = try check.viewContext.fetch(FetchRequest<ConflictNote>()).map(\.title).sorted()
        #expect(titles == ["pilot", "theirs", "unrelated"])
    }
}
