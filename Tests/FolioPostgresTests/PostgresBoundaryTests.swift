import FolioPostgres
import FolioStore
import FolioTestSupport
import Foundation
import Testing

/// What Folio may write on a server: an empty database, a new namespace in
/// a database that already keeps Folio stores, or this program's store.
/// A namespace of another program, or a new one that would hide this
/// program's store kept under another name, is refused and left as it was.
@MainActor
@Suite struct PostgresBoundaryTests {
    let cluster: PostgresCluster
    let uri: String
    let database: String

    init() async throws {
        cluster = try await PostgresCluster.shared()
        uri = try await cluster.makeDatabase(prefix: "boundary")
        database = PostgresCluster.databaseName(uri)
    }

    /// Every table and namespace of the database with its row count, to show nothing changed.
    func contents() async throws -> String {
        try await cluster.runSQL(
            """
            SELECT string_agg(table_schema || '.' || table_name, ',' ORDER BY 1) FROM information_schema.tables
            WHERE table_schema NOT IN ('pg_catalog', 'information_schema');
            SELECT string_agg(nspname, ',' ORDER BY 1) FROM pg_namespace
            """, database: database)
    }

    func expectRefused(_ schema: Schema, mentioning words: [String], sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let before = try await contents()
        for (readOnly, seeded) in [(false, false), (false, true), (true, true)] {
            do {
                _ = try PersistentContainer(
                    schema: schema, store: .postgreSQL(uri), readOnly: readOnly,
                    seed: seeded ? { TestAnimal(context: $0).commonName = "Seed" } : nil)
                Issue.record("opened (readOnly \(readOnly), seeded \(seeded))", sourceLocation: sourceLocation)
            } catch let error as StoreError {
                for word in words { #expect(error.description.contains(word), "\(error)", sourceLocation: sourceLocation) }
            }
        }
        #expect(try await contents() == before, sourceLocation: sourceLocation)
    }

    @Test func folioMetadataBesideAnotherProgramsTableIsNotAStore() async throws {
        try await cluster.runSQL(
            """
            CREATE SCHEMA "Tests";
            CREATE TABLE "Tests".folio_metadata (key TEXT PRIMARY KEY, value TEXT NOT NULL);
            CREATE TABLE "Tests".accounts (id int PRIMARY KEY, owner text); INSERT INTO "Tests".accounts VALUES (1, 'Ann')
            """, database: database)
        let named = StoreTestSchema.make(name: "Tests")
        try await expectRefused(named, mentioning: ["accounts"])
    }

    /// A store made without a name lives in `public`; naming the schema later must not start an empty store beside it.
    @Test func aStoreUnderAnotherNameIsFoundAndReported() async throws {
        do {
            let unnamed = try PersistentContainer(schema: StoreTestSchema.make(), store: .postgreSQL(uri))
            TestAnimal(context: unnamed.viewContext).commonName = "Okapi"
            try unnamed.viewContext.save()
        }
        let named = StoreTestSchema.make(name: "Inventory")
        try await expectRefused(named, mentioning: ["public", "Inventory"])
        // Another application's store beside it is no obstacle.
        let other = try PersistentContainer(schema: Schema(name: "Notes", [TwoBuildsSchemaNote.self]), store: .postgreSQL(uri))
        #expect(try other.viewContext.count(for: FetchRequest<TwoBuildsSchemaNote>()) == 0)
        let again = try PersistentContainer(schema: StoreTestSchema.make(), store: .postgreSQL(uri))
        #expect(try again.viewContext.count(for: FetchRequest<TestAnimal>()) == 1)
    }

    @Test func anOlderBuildKeepsWhatANewerOneAddedOnAServer() async throws {
        do {
            let newer = try PersistentContainer(schema: TwoBuildsSchema.newer, store: .postgreSQL(uri))
            let item = NewerBuildItem(context: newer.viewContext)
            item.name = "Lamp"
            item.shelf = "B2"
            try newer.viewContext.save()
        }
        let record = "SELECT value FROM \"Inventory\".folio_metadata WHERE key = 'schema'"
        let recorded = try await cluster.runSQL(record, database: database)
        #expect(recorded.contains("shelf"))
        do {
            let older = try PersistentContainer(schema: TwoBuildsSchema.older, store: .postgreSQL(uri))
            OlderBuildItem(context: older.viewContext).name = "Desk"
            try older.viewContext.save()
        }
        #expect(try await cluster.runSQL(record, database: database) == recorded)
        // As an older Folio left it: the column there, the record without it.
        try await cluster.runSQL(
            "UPDATE \"Inventory\".folio_metadata SET value = replace(value, ',\"shelf\":\"TEXT\"', '') WHERE key = 'schema'",
            database: database)
        let newer = try PersistentContainer(schema: TwoBuildsSchema.newer, store: .postgreSQL(uri))
        let items = try newer.viewContext.fetch(FetchRequest<NewerBuildItem>(sortBy: [SortDescriptor(\.name)]))
        #expect(items.map(\.shelf) == ["unsorted", "B2"])
        #expect(try await cluster.runSQL(record, database: database).contains("shelf"))
    }
}

extension PostgresBoundaryTests {
    /// A new store's tables, its seed and the seeded mark are one transaction
    /// (their rows share one `xmin`), as a new file appears with its seed in
    /// one step: a first launch killed at any moment leaves no store or a seeded one.
    @Test func aNewStoreIsSeededInTheTransactionThatMakesIt() async throws {
        let named = StoreTestSchema.make(name: "Seeded")
        do {
            _ = try PersistentContainer(schema: named, store: .postgreSQL(uri)) { context in
                let cats = TestClassification(context: context)
                cats.order = "Carnivora"
                cats.family = "Felidae"
                let lion = TestAnimal(context: context)
                lion.commonName = "Lion"
                lion.classification = cats
            }
        }
        let transactions = try await cluster.runSQL(
            """
            SELECT count(DISTINCT x) FROM (
              SELECT xmin::text AS x FROM "Seeded".folio_metadata WHERE key IN ('schema', 'seeded')
              UNION ALL SELECT xmin::text FROM "Seeded"."TestAnimal"
              UNION ALL SELECT xmin::text FROM "Seeded"."TestClassification") t
            """, database: database)
        #expect(transactions.trimmingCharacters(in: .whitespacesAndNewlines) == "1")
        // Opened again with its seed, nothing is added; a new save continues its IDs.
        let again = try PersistentContainer(schema: named, store: .postgreSQL(uri)) { TestAnimal(context: $0).commonName = "Twice" }
        let context = again.viewContext
        #expect(try context.fetch(FetchRequest<TestAnimal>()).map(\.commonName) == ["Lion"])
        #expect(try context.fetch(FetchRequest<TestAnimal>()).first?.classification?.order == "Carnivora")
        TestAnimal(context: context).commonName = "Tiger"
        try context.save()
        #expect(try context.count(for: FetchRequest<TestAnimal>()) == 2)
    }
}

/// A note of another application, sharing no entity with the test schema.
final class TwoBuildsSchemaNote: ManagedObject {
    @Managed var text: String
    override class var entity: EntityDescription {
        EntityDescription(
            TwoBuildsSchemaNote.self, name: "Note", properties: [.attribute(\TwoBuildsSchemaNote.text, "text", defaultValue: "")])
    }
}
