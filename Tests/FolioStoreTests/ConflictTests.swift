import CSQLite
import FolioStore
import FolioTestSupport
import Foundation
import Testing

/// The first column of each row of `sql` on the file, read through SQLite's C API as another program would.
func sqliteColumn(_ path: String, _ sql: String) -> [String] {
    var db: OpaquePointer?
    guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else { return ["cannot open"] }
    defer { sqlite3_close(db) }
    var stmt: OpaquePointer?
    guard sqlite3_prepare_v2(db, sql, -1, &stmt, nil) == SQLITE_OK else {
        return ["cannot prepare: \(String(cString: sqlite3_errmsg(db)))"]
    }
    defer { sqlite3_finalize(stmt) }
    var result: [String] = []
    while sqlite3_step(stmt) == SQLITE_ROW { result.append(sqlite3_column_text(stmt, 0).map { String(cString: $0) } ?? "NULL") }
    return result
}

/// Optimistic concurrency on SQLite: row versions, their migration, and
/// saves of several contexts (and processes) that change the same rows.
@MainActor
@Suite struct ConflictTests {
    let dir: StoreTemporaryDirectory
    let path: String

    init() throws {
        dir = try StoreTemporaryDirectory()
        path = dir.path("conflicts.sqlite")
    }

    func open(readOnly: Bool = false) throws -> PersistentContainer {
        try PersistentContainer(schema: ConflictTestSchema.make(), path: path, readOnly: readOnly)
    }

    func version(_ table: String, _ id: Int64) -> [String] {
        sqliteColumn(path, "SELECT \(ConflictStores.versionColumn) FROM \(table) WHERE id = \(id)")
    }

    @Test func aRowStartsAtVersionOneAndEveryWriteOfItBumpsIt() throws {
        let container = try open()
        let context = container.viewContext
        let note = ConflictNote(context: context)
        note.title = "first"
        let shelf = ConflictShelf(context: context)
        shelf.name = "A"
        try context.save()
        let id = note.objectID.rowID
        #expect(version("ConflictNote", id) == ["1"])
        note.title = "second"
        note.stars = 3
        try context.save()
        #expect(version("ConflictNote", id) == ["2"])
        note.body = "third"
        try context.save()
        #expect(version("ConflictNote", id) == ["3"])
        // A book joining the shelf writes the book's row, not the shelf's.
        let book = ConflictBook(context: context)
        book.title = "B"
        try context.save()
        book.shelf = shelf
        try context.save()
        #expect(version("ConflictBook", book.objectID.rowID) == ["2"])
        #expect(version("ConflictShelf", shelf.objectID.rowID) == ["1"])
        // The context knows the version it wrote, so its next save is no conflict.
        note.title = "fourth"
        try context.save()
        #expect(version("ConflictNote", id) == ["4"])
    }

    @Test func aStaleUpdateFailsNamingEveryKeyAndWritesNothing() throws {
        let a = try open(), b = try open()
        let note = ConflictNote(context: a.viewContext)
        note.title = "base"
        note.body = "body"
        try a.viewContext.save()
        let theirs: ConflictNote = try #require(try b.viewContext.existingObject(with: note.objectID) as? ConflictNote)
        #expect(theirs.title == "base")
        note.title = "from a"
        note.stars = 2
        try a.viewContext.save()
        theirs.title = "from b"
        theirs.body = "b's body"
        do {
            try b.viewContext.save()
            Issue.record("a stale save succeeded")
        } catch StoreError.conflict(let conflicts) {
            #expect(
                conflicts == [
                    SaveConflict(
                        entity: "ConflictNote", id: note.objectID.rowID, kind: .changed,
                        keys: [
                            .init(key: "title", stored: .text("from a"), context: .text("from b")),
                            .init(key: "body", stored: .text("body"), context: .text("b's body")),
                            .init(key: "stars", stored: .integer(2), context: .integer(0)),
                        ])
                ])
        }
        // Nothing written, and b keeps its edit.
        #expect(sqliteColumn(path, "SELECT title || '/' || body || '/' || stars FROM ConflictNote") == ["from a/body/2"])
        #expect(theirs.title == "from b" && theirs.body == "b's body" && b.viewContext.hasChanges)
    }

    @Test func aStoreWrittenBeforeRowVersionsGainsThemAndKeepsItsRows() throws {
        do {
            let container = try open()
            for title in ["one", "two"] { ConflictNote(context: container.viewContext).title = title }
            try container.viewContext.save()
        }
        // The layout of a store written before versions: no version column, none recorded.
        let json = try #require(sqliteColumn(path, "SELECT value FROM folio_metadata WHERE key = 'schema'").first)
        let old = try ConflictStores.withoutVersions(json).replacingOccurrences(of: "'", with: "''")
        runSQL(
            path,
            """
            ALTER TABLE ConflictNote DROP COLUMN \(ConflictStores.versionColumn);
            ALTER TABLE ConflictShelf DROP COLUMN \(ConflictStores.versionColumn);
            ALTER TABLE ConflictBook DROP COLUMN \(ConflictStores.versionColumn);
            UPDATE folio_metadata SET value = '\(old)' WHERE key = 'schema';
            """)
        #expect(
            sqliteColumn(path, "SELECT count(*) FROM pragma_table_info('ConflictNote') WHERE name = '\(ConflictStores.versionColumn)'") == [
                "0"
            ])
        // A read-only open cannot add the column.
        #expect { _ = try open(readOnly: true) } throws: { error in
            guard case StoreError.migrationNeeded = error else { return false }
            return true
        }
        let container = try open()
        let notes = try container.viewContext.fetch(FetchRequest<ConflictNote>(sortBy: [SortDescriptor(\.title)]))
        #expect(notes.map(\.title) == ["one", "two"])
        #expect(sqliteColumn(path, "SELECT \(ConflictStores.versionColumn) FROM ConflictNote ORDER BY id") == ["1", "1"])
        notes[0].title = "uno"
        try container.viewContext.save()
        #expect(
            sqliteColumn(path, "SELECT title || ':' || \(ConflictStores.versionColumn) FROM ConflictNote ORDER BY id") == [
                "uno:2", "two:1",
            ])
    }
}

/// Merge policies between two processes on one file: the other process
/// saves first, this one second, under each policy.
@MainActor
@Suite struct ProcessConflictTests {
    @Test func everyMergePolicyKeepsItsRulePropertyByProperty() async throws {
        let seed = StoreSplitMix64.seedFromEnvironment()
        print("seed:", seed)
        let dir = try StoreTemporaryDirectory()
        let path = dir.path("policies.sqlite")
        let container = try PersistentContainer(schema: ConflictTestSchema.make(), path: path)
        let peer = try await ProcessConflictPeer(worker: StoreChildProcess.sibling("folio-store-worker"), path: path)
        let problems = try await container.newBackgroundContext().perform {
            try ConflictScenario.playAll(rounds: 8, seed: seed, in: $0, peer: peer)
        }
        #expect(problems.isEmpty, "seed \(seed):\n\(problems.joined(separator: "\n"))")
    }
}

extension ProcessConflictTests {
    @Test func deletionsDenyRulesRelationshipsAndUniquenessAcrossProcessesFailClearly() async throws {
        let dir = try StoreTemporaryDirectory()
        let path = dir.path("cases.sqlite")
        let container = try PersistentContainer(schema: ConflictTestSchema.make(), path: path)
        let peer = try await ProcessConflictPeer(worker: StoreChildProcess.sibling("folio-store-worker"), path: path)
        let problems = try await container.newBackgroundContext().perform { try ConflictCases.all(in: $0, peer: peer) }
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    /// The other process's change to a key changed here arrives (merged) before this save:
    /// the save still meets the conflict, so the policy decides and nothing is lost unseen.
    @Test func aMergedChangeToAKeyChangedHereStillConflicts() async throws {
        let dir = try StoreTemporaryDirectory()
        let path = dir.path("merged.sqlite")
        let container = try PersistentContainer(schema: ConflictTestSchema.make(), path: path)
        let context = container.viewContext
        let peer = try await ProcessConflictPeer(worker: StoreChildProcess.sibling("folio-store-worker"), path: path)
        var heard = 0
        let token = context.observeChanges { if $0.origin == .otherProcess { heard += 1 } }
        defer { withExtendedLifetime(token) {} }
        let note = ConflictNote(context: context)
        note.title = "base"
        try context.save()
        note.title = "mine"
        note.body = "my body"
        #expect(try await peer.send("set \(note.objectID.rowID) title=theirs stars=7") == "saved")
        #expect(await waitUntil { heard == 1 })
        // Merged: the key changed only there is not lost; the one changed on both sides is a conflict.
        #expect(
            throws: StoreError.conflict([
                SaveConflict(
                    entity: "ConflictNote", id: note.objectID.rowID, kind: .changed,
                    keys: [
                        .init(key: "title", stored: .text("theirs"), context: .text("mine")),
                        .init(key: "body", stored: .text(""), context: .text("my body")),
                        .init(key: "stars", stored: .integer(7), context: .integer(0)),
                    ])
            ])
        ) { try context.save() }
        context.mergePolicy = .mergeByPropertyStoreTrump
        try context.save()
        context.refresh(note, mergeChanges: false)
        #expect([note.title, note.body, String(note.stars)] == ["theirs", "my body", "7"])
        // A merged change to other keys only is adopted, and the save needs no policy.
        context.mergePolicy = .error
        note.body = "second body"
        #expect(try await peer.send("set \(note.objectID.rowID) stars=9") == "saved")
        #expect(await waitUntil { heard == 2 })
        try context.save()
        context.refresh(note, mergeChanges: false)
        #expect([note.title, note.body, String(note.stars)] == ["theirs", "second body", "9"])
    }
}

extension ConflictTests {
    /// A merge that kept this context's values (a key changed on both sides)
    /// leaves the object behind the store: a rollback shows the stored
    /// values, not the ones read before the other save.
    @Test func aRollbackAfterAKeptMergeShowsTheStoredValues() async throws {
        let a = try open(), b = try open()
        let context = a.viewContext
        var heard = 0
        let token = context.observeChanges { if $0.origin == .otherProcess || $0.origin == .otherContext { heard += 1 } }
        defer { withExtendedLifetime(token) {} }
        let note = ConflictNote(context: context)
        note.title = "base"
        try context.save()
        let theirs = try #require(try b.viewContext.existingObject(with: note.objectID) as? ConflictNote)
        theirs.title = "theirs"
        theirs.stars = 4
        try b.viewContext.save()
        note.title = "mine"
        #expect(await waitUntil { heard >= 1 })
        #expect(note.title == "mine")
        context.rollback()
        #expect([note.title, String(note.stars)] == ["theirs", "4"])
        note.body = "after"
        try context.save()
        #expect(sqliteColumn(path, "SELECT title || '/' || body || '/' || stars FROM ConflictNote") == ["theirs/after/4"])
    }
}

extension ConflictTests {
    /// A batch update changes rows a version on, so a context that read them
    /// before meets the change when it saves, never overwrites it unseen.
    @Test func aBatchUpdateIsAChangeASaveMeets() throws {
        let a = try open(), b = try open()
        let note = ConflictNote(context: a.viewContext)
        note.title = "base"
        try a.viewContext.save()
        let id = note.objectID.rowID
        _ = try b.viewContext.execute(
            BatchUpdateRequest<ConflictNote>(predicate: #Predicate { $0.title == "base" }).setting(\.title, to: "batch"))
        #expect(version("ConflictNote", id) == ["2"])
        note.title = "mine"
        #expect(
            throws: StoreError.conflict([
                SaveConflict(
                    entity: "ConflictNote", id: id, kind: .changed,
                    keys: [
                        .init(key: "title", stored: .text("batch"), context: .text("mine"))
                    ])
            ])
        ) { try a.viewContext.save() }
        #expect(sqliteColumn(path, "SELECT title FROM ConflictNote") == ["batch"])
    }
}
