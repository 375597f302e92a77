import FolioPostgres
import FolioStore
import FolioTestSupport
import Foundation
import Testing

/// Optimistic concurrency on a PostgreSQL server: two containers are two
/// machines changing the same rows.
@MainActor
@Suite struct PostgresConflictTests {
    let cluster: PostgresCluster
    let uri: String
    var database: String { PostgresCluster.databaseName(uri) }

    init() async throws {
        cluster = try await PostgresCluster.shared()
        uri = try await cluster.makeDatabase(prefix: "conflict")
    }

    func open(readOnly: Bool = false) throws -> PersistentContainer {
        try PersistentContainer(schema: ConflictTestSchema.make(), store: .postgreSQL(uri), readOnly: readOnly)
    }

    /// Runs SQL in the schema's namespace, as another client of the server would.
    @discardableResult
    func sql(_ text: String) async throws -> String {
        try await cluster.runSQL("SET search_path TO conflicts; " + text, database: database).trimmingCharacters(
            in: .whitespacesAndNewlines)
    }

    @Test func aRowStartsAtVersionOneAndEveryWriteOfItBumpsIt() async throws {
        let container = try open()
        let context = container.viewContext
        let note = ConflictNote(context: context)
        note.title = "first"
        try context.save()
        let select = "SELECT \(ConflictStores.versionColumn) FROM \"ConflictNote\" WHERE id = \(note.objectID.rowID)"
        #expect(try await sql(select) == "1")
        note.title = "second"
        try context.save()
        note.stars = 4
        try context.save()
        #expect(try await sql(select) == "3")
    }

    @Test func aStaleUpdateFailsNamingEveryKeyAndWritesNothing() async throws {
        let a = try open(), b = try open()
        let note = ConflictNote(context: a.viewContext)
        note.title = "base"
        try a.viewContext.save()
        let theirs = try #require(try b.viewContext.existingObject(with: note.objectID) as? ConflictNote)
        note.title = "from a"
        try a.viewContext.save()
        theirs.title = "from b"
        #expect(
            throws: StoreError.conflict([
                SaveConflict(
                    entity: "ConflictNote", id: note.objectID.rowID, kind: .changed,
                    keys: [
                        .init(key: "title", stored: .text("from a"), context: .text("from b"))
                    ])
            ])
        ) { try b.viewContext.save() }
        #expect(try await sql("SELECT title FROM \"ConflictNote\"") == "from a")
        #expect(theirs.title == "from b" && b.viewContext.hasChanges)
    }

    /// A save of no new objects goes in one round trip and stops at its
    /// first stale write; the error must still name every stale object,
    /// and nothing of the save (its fresh changes, its history) may land.
    @Test func aSaveMeetingSeveralStaleRowsNamesEachAndWritesNothing() async throws {
        let a = try open(), b = try open()
        let notes = (0..<3).map { i in
            let note = ConflictNote(context: a.viewContext)
            note.title = "base \(i)"
            return note
        }
        try a.viewContext.save()
        let theirs = try notes.map { try #require(try b.viewContext.existingObject(with: $0.objectID) as? ConflictNote) }
        // The newest history row drawn: a's save draws one, b's none.
        let latest =
            "SELECT COALESCE(last_value, 0) FROM pg_sequences WHERE schemaname = current_schema() AND sequencename = 'folio_history_seq_seq'"
        let before = try #require(Int(try await sql(latest)))
        // From here to b's save nothing waits, so b has not heard a's save.
        notes[0].title = "from a 0"
        notes[1].title = "from a 1"
        try a.viewContext.save()
        theirs[0].title = "from b 0"
        b.viewContext.delete(theirs[1])
        theirs[2].title = "from b 2"
        var named: Set<Int64> = []
        do {
            try b.viewContext.save()
            Issue.record("a save over two stale rows succeeded")
        } catch StoreError.conflict(let conflicts) {
            named = Set(conflicts.map(\.id))
        }
        #expect(named == [notes[0].objectID.rowID, notes[1].objectID.rowID])
        #expect(try await sql("SELECT string_agg(title, ',' ORDER BY id) FROM \"ConflictNote\"") == "from a 0,from a 1,base 2")
        #expect(try await sql(latest) == String(before + 1))
    }

    @Test func aStoreWrittenBeforeRowVersionsGainsThemAndKeepsItsRows() async throws {
        do {
            let container = try open()
            for title in ["one", "two"] { ConflictNote(context: container.viewContext).title = title }
            try container.viewContext.save()
        }
        let json = try await sql("SELECT value FROM folio_metadata WHERE key = 'schema'")
        let old = try ConflictStores.withoutVersions(json).replacingOccurrences(of: "'", with: "''")
        let column = ConflictStores.versionColumn
        try await sql(
            """
            ALTER TABLE "ConflictNote" DROP COLUMN \(column); ALTER TABLE "ConflictShelf" DROP COLUMN \(column);
            ALTER TABLE "ConflictBook" DROP COLUMN \(column); UPDATE folio_metadata SET value = '\(old)' WHERE key = 'schema'
            """)
        #expect { _ = try open(readOnly: true) } throws: { error in
            guard case StoreError.migrationNeeded = error else { return false }
            return true
        }
        let container = try open()
        let notes = try container.viewContext.fetch(FetchRequest<ConflictNote>(sortBy: [SortDescriptor(\.title)]))
        #expect(notes.map(\.title) == ["one", "two"])
        notes[0].title = "uno"
        try container.viewContext.save()
        #expect(try await sql("SELECT string_agg(title || ':' || \(column), ',' ORDER BY id) FROM \"ConflictNote\"") == "uno:2,two:1")
    }

    @Test func everyMergePolicyKeepsItsRulePropertyByProperty() async throws {
        let seed = StoreSplitMix64.seedFromEnvironment()
        print("seed:", seed)
        let mine = try open(), peer = ContainerConflictPeer(try open())
        let problems = try await mine.newBackgroundContext().perform {
            try ConflictScenario.playAll(rounds: 6, seed: seed, in: $0, peer: peer)
        }
        #expect(problems.isEmpty, "seed \(seed):\n\(problems.joined(separator: "\n"))")
    }

    @Test func deletionsDenyRulesRelationshipsAndUniquenessAcrossMachinesFailClearly() async throws {
        let mine = try open(), peer = ContainerConflictPeer(try open())
        let problems = try await mine.newBackgroundContext().perform { try ConflictCases.all(in: $0, peer: peer) }
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }
}
