import FolioStore
import FolioTestSupport
import Foundation
import Testing

@testable import FolioPostgres

/// Saves of one namespace on one server write side by side. Each test holds
/// another client's transaction open at a chosen point (its row locks, an
/// uncommitted unique value or reference), lets a save run into it, and
/// checks what the single writer lock used to guarantee still holds: stale
/// writes are conflicts, unique values and delete rules hold, and the
/// history lists saves in the order they committed.
@MainActor
@Suite struct PostgresConcurrentSaveTests {
    let cluster: PostgresCluster
    let uri: String
    var database: String { PostgresCluster.databaseName(uri) }

    init() async throws {
        cluster = try await PostgresCluster.shared()
        // A statement waits for the other client as long as a save may (see `open`), not the usual 30 s.
        uri = try await cluster.makeDatabase(prefix: "concurrent") + "&options=-c%20statement_timeout%3D600000"
    }

    /// A save waits for the other client as long as a loaded machine takes
    /// the test to its next step: its lock wait is bounded by `busyTimeout`,
    /// and the statement by the URI's statement timeout.
    func open(busyTimeout: Double = 600) throws -> PersistentContainer {
        try PersistentContainer(schema: ConflictTestSchema.make(), store: .postgreSQL(uri), busyTimeout: busyTimeout)
    }

    /// Another client's session, holding what a test gives it until it commits.
    func otherClient() throws -> PGConnection {
        let connection = try PGConnection(uri: uri, statementTimeoutMilliseconds: nil)
        try connection.execute("SET search_path TO conflicts")
        return connection
    }

    /// Waits until `count` sessions of the test's database wait for a lock.
    func waitForLockWaiters(_ count: Int) async -> Bool {
        let sql = "SELECT count(*) FROM pg_stat_activity WHERE datname = '\(database)' AND wait_event_type = 'Lock'"
        return await waitUntil(60) {
            Int(((try? await cluster.runSQL(sql)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0 >= count
        }
    }

    /// Saves `change` in a background context of `container` (which holds its
    /// objects by ID), off the main actor: it may wait for the other client.
    func saving(_ container: PersistentContainer, _ change: @escaping @Sendable (ObjectContext) throws -> Void) -> Task<Void, any Error> {
        let context = container.newBackgroundContext()
        return Task { try await context.perform { c in try change(c) } }
    }

    nonisolated static func note(_ id: ObjectID, in context: ObjectContext) throws -> ConflictNote {
        try #require(try context.existingObject(with: id) as? ConflictNote)
    }

    @Test func aSaveCommitsWhileAnotherSaveOfTheNamespaceWaitsForARow() async throws {
        let a = try open(), b = try open(busyTimeout: 2), watcher = try open()
        let first = ConflictNote(context: a.viewContext), second = ConflictNote(context: a.viewContext)
        first.title = "first"
        second.title = "second"
        try a.viewContext.save()
        let (firstID, secondID) = (first.objectID, second.objectID)
        var heard: [ObjectID] = []
        let token = watcher.viewContext.observeChanges { changes in
            guard changes.origin == .otherProcess else { return }
            heard += changes.updated.keys.sorted()
        }
        let other = try otherClient()
        try other.execute("BEGIN; SELECT 1 FROM \"ConflictNote\" WHERE id = \(firstID.rowID) FOR UPDATE")
        let waiting = saving(a) { c in
            try Self.note(firstID, in: c).title = "first, saved last"
            try c.save()
        }
        #expect(await waitForLockWaiters(1), "the save waits for the row")
        // Another save of the namespace goes ahead meanwhile (one writer at a time: busy after 2 s).
        try Self.note(secondID, in: b.viewContext).title = "second, saved first"
        try b.viewContext.save()
        #expect(await waitUntil(30) { heard.contains(secondID) })
        try other.execute("COMMIT")
        try await waiting.value
        #expect(await waitUntil(30) { heard.count >= 2 })
        try await Task.sleep(for: .milliseconds(200))
        #expect(heard == [secondID, firstID], "heard in commit order, once each")
        withExtendedLifetime(token) {}
    }

    @Test func aWriteWaitingForAnotherSavesRowSeesItsCommitAsAConflict() async throws {
        let a = try open()
        let note = ConflictNote(context: a.viewContext)
        note.title = "base"
        try a.viewContext.save()
        let id = note.objectID
        let other = try otherClient()
        try other.execute(
            """
            BEGIN; UPDATE "ConflictNote" SET title = 'theirs', \(RowVersion.column) = \(RowVersion.column) + 1 WHERE id = \(id.rowID)
            """)
        let waiting = saving(a) { c in
            try Self.note(id, in: c).title = "mine"
            try c.save()
        }
        #expect(await waitForLockWaiters(1))
        try other.execute("COMMIT")
        await #expect(
            throws: StoreError.conflict([
                SaveConflict(
                    entity: "ConflictNote", id: id.rowID, kind: .changed,
                    keys: [.init(key: "title", stored: .text("theirs"), context: .text("mine"))])
            ])
        ) { try await waiting.value }
        #expect(try await cluster.runSQL("SELECT title FROM conflicts.\"ConflictNote\"", database: database).contains("theirs"))
    }

    @Test func aUniqueValueAnotherSaveHoldsUncommittedFailsTheSaveThatWaitedForIt() async throws {
        let a = try open()
        let other = try otherClient()
        try other.execute("BEGIN; INSERT INTO \"ConflictShelf\" (id, name) VALUES (1000000, 'Oak')")
        let waiting = saving(a) { c in
            ConflictShelf(context: c).name = "Oak"
            try c.save()
        }
        #expect(await waitForLockWaiters(1))
        try other.execute("COMMIT")
        await #expect(throws: StoreError.constraintViolation(entity: "ConflictShelf", key: "name", value: "'Oak'")) {
            try await waiting.value
        }
        let count = try await cluster.runSQL("SELECT count(*) FROM conflicts.\"ConflictShelf\"", database: database)
        #expect(count.trimmingCharacters(in: .whitespacesAndNewlines) == "1")
    }

    @Test func aDeletionDeniedByAReferenceAnotherSaveIsMakingIsRefused() async throws {
        let a = try open()
        let shelf = ConflictShelf(context: a.viewContext)
        shelf.name = "Pine"
        try a.viewContext.save()
        let id = shelf.objectID
        let other = try otherClient()
        // A book on the shelf, its reference checked now: the shelf's row is held (key share) until it commits.
        try other.execute(
            """
            BEGIN; INSERT INTO "ConflictBook" (id, title, shelf) VALUES (1000000, 'Atlas', \(id.rowID)); SET CONSTRAINTS ALL IMMEDIATE
            """)
        // This context sees no book on the shelf, so its deny rule lets the deletion through to the server.
        let waiting = saving(a) { c in
            c.delete(try c.existingObject(with: id))
            try c.save()
        }
        #expect(await waitForLockWaiters(1))
        try other.execute("COMMIT")
        await #expect(throws: StoreError.self) { try await waiting.value }
        let left = try await cluster.runSQL(
            "SELECT s.name, b.title FROM conflicts.\"ConflictShelf\" s JOIN conflicts.\"ConflictBook\" b ON b.shelf = s.id",
            database: database)
        #expect(left.contains("Pine") && left.contains("Atlas"), "the shelf and its book are both kept: \(left)")
    }

    /// Two saves that write the same two rows in opposite orders wait for
    /// each other; the server ends one (a deadlock), which is made again and
    /// then meets the other's rows as a conflict: as if they ran one after
    /// the other. Two other clients hold a row each, and let go in turn, so
    /// the saves meet in the deadlock every run.
    @Test func twoSavesWaitingForEachOthersRowsEndOneSavedAndOneInConflict() async throws {
        let a = try open(), b = try open()
        let first = ConflictNote(context: a.viewContext), second = ConflictNote(context: a.viewContext)
        first.title = "first"
        second.title = "second"
        try a.viewContext.save()
        let (firstID, secondID) = (first.objectID, second.objectID)
        let holdingFirst = try otherClient(), holdingSecond = try otherClient()
        try holdingFirst.execute("BEGIN; SELECT 1 FROM \"ConflictNote\" WHERE id = \(firstID.rowID) FOR UPDATE")
        try holdingSecond.execute("BEGIN; SELECT 1 FROM \"ConflictNote\" WHERE id = \(secondID.rowID) FOR UPDATE")
        guard case .integer(let firstHolder)? = try holdingFirst.scalar("SELECT pg_backend_pid()") else { return }
        // Sessions of the test's database waiting for a lock, except on the client holding the first row.
        let blocked = """
            SELECT count(*) FROM pg_stat_activity WHERE datname = '\(database)'
            AND cardinality(pg_blocking_pids(pid)) > 0 AND NOT \(firstHolder) = ANY(pg_blocking_pids(pid))
            """
        func blockedCount() async -> Int {
            Int(((try? await cluster.runSQL(blocked)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        }
        let forwards = saving(a) { c in
            try Self.note(firstID, in: c).stars = 1
            try Self.note(secondID, in: c).stars = 1
            try c.save()
        }
        #expect(await waitForLockWaiters(1), "the first save waits for the first row")
        let backwards = saving(b) { c in
            try Self.note(secondID, in: c).stars = 2
            try Self.note(firstID, in: c).stars = 2
            try c.save()
        }
        #expect(await waitUntil(60) { await blockedCount() == 1 }, "the second save waits for the second row")
        try holdingFirst.execute("COMMIT")
        // The first save wrote the first row and now waits for the second, behind the second save.
        #expect(await waitUntil(60) { await blockedCount() == 2 })
        try holdingSecond.execute("COMMIT")
        var saved = 0
        var conflicts = 0
        for task in [forwards, backwards] {
            do {
                try await task.value
                saved += 1
            } catch StoreError.conflict {
                conflicts += 1
            }
        }
        #expect(saved == 1 && conflicts == 1)
        let stars = try await cluster.runSQL("SELECT DISTINCT stars FROM conflicts.\"ConflictNote\"", database: database)
        #expect(["1", "2"].contains(stars.trimmingCharacters(in: .whitespacesAndNewlines)), "one save's values on both rows: \(stars)")
    }
}

/// A value handed whole to one task, which alone uses it from then on.
private struct Unchecked<Value>: @unchecked Sendable {  // the receiving task is the value's only user
    let value: Value
    init(_ value: Value) { self.value = value }
}
