import CSQLite
import FolioTestSupport
import Foundation
import Testing

@testable import FolioStore

/// Notes of another application, for identity tests: no entity in common with the test schema.
final class IdentityNote: ManagedObject {
    @Managed var text: String
    override class var entity: EntityDescription {
        EntityDescription(IdentityNote.self, properties: [.attribute(\IdentityNote.text, "text", defaultValue: "")])
    }
}

/// Runs SQL on a file through SQLite's C API, as another program would.
func runSQL(_ path: String, _ sql: String) {
    var db: OpaquePointer?
    #expect(sqlite3_open(path, &db) == SQLITE_OK)
    defer { sqlite3_close(db) }
    #expect(sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK, "\(sql)")
}

/// Finding 7 (foreign files): a Folio store says what it is (application id
/// and the schema's name in its metadata); a file that is not empty and not
/// a Folio store, or is another schema's store, is refused and not one byte
/// of the folder changes (no -wal or -shm either), whatever the open asks.
@MainActor
@Suite struct StoreIdentityTests {
    /// (Containers here do not poll: a poll in flight would hold a container, and its closing
    /// checkpoint, past the scope that compares the folder.)
    /// Every way of opening the file fails with an error that `matches`, and leaves the folder as it was.
    func expectRefused(
        _ dir: StoreTemporaryDirectory, _ path: String, schema: @autoclosure () -> Schema = StoreTestSchema.make(),
        _ matches: (StoreError) -> Bool
    ) {
        let before = dir.snapshot()
        for (readOnly, seeded) in [(false, false), (false, true), (true, false), (true, true)] {
            do {
                _ = try PersistentContainer(schema: schema(), path: path, readOnly: readOnly, seed: seeded ? { _ in } : nil)
                Issue.record("opened \(path) (readOnly \(readOnly), seeded \(seeded))")
            } catch let error as StoreError {
                #expect(matches(error), "\(error)")
                #expect(error.description.contains("left untouched"), "\(error)")
            } catch {
                Issue.record("\(error)")
            }
        }
        #expect(dir.snapshot() == before)
    }

    func isForeign(_ error: StoreError) -> Bool { if case .notAFolioStore = error { true } else { false } }
    func isOtherSchema(_ error: StoreError) -> Bool { if case .otherSchema = error { true } else { false } }

    @Test func anotherProgramsDatabaseIsRefusedUntouched() throws {
        let dir = try StoreTemporaryDirectory()
        let rollback = dir.path("shop.db"), wal = dir.path("wal-shop.db")
        runSQL(rollback, "CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO customers (name) VALUES ('Ann')")
        runSQL(
            wal,
            "PRAGMA journal_mode=WAL; CREATE TABLE orders (id INTEGER PRIMARY KEY, total REAL); INSERT INTO orders (total) VALUES (9.5)")
        #expect(!FileManager.default.fileExists(atPath: wal + "-wal"))
        expectRefused(dir, rollback, isForeign)
        expectRefused(dir, wal, isForeign)
        runSQL(dir.path("tagged.db"), "PRAGMA application_id = 1196444237; CREATE TABLE t (x)")
        expectRefused(dir, dir.path("tagged.db"), isForeign)
    }

    @Test func anotherSchemasStoreIsRefusedUntouched() throws {
        let dir = try StoreTemporaryDirectory()
        let path = dir.path("zoo.sqlite")
        do {
            let container = try PersistentContainer(
                schema: Schema(name: "Zoo", [TestZoo.self, TestClassification.self, TestAnimal.self]), path: path, pollInterval: 3600)
            TestAnimal(context: container.viewContext).commonName = "Okapi"
            try container.viewContext.save()
        }
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        expectRefused(dir, path, schema: Schema(name: "Notes", [IdentityNote.self]), isOtherSchema)
        // Another name with the same entities is another application too.
        expectRefused(dir, path, schema: Schema(name: "Aquarium", [TestZoo.self, TestClassification.self, TestAnimal.self]), isOtherSchema)
        // Unnamed, it must share an entity.
        expectRefused(dir, path, schema: Schema([IdentityNote.self]), isOtherSchema)
        let same = try PersistentContainer(
            schema: Schema(name: "Zoo", [TestZoo.self, TestClassification.self, TestAnimal.self]), path: path, pollInterval: 3600)
        #expect(try same.viewContext.count(for: FetchRequest<TestAnimal>()) == 1)
    }

    @Test func aStoreIsStampedAndAStoreMadeBeforeStampsIsAdopted() throws {
        let dir = try StoreTemporaryDirectory()
        let path = dir.path("old.sqlite")
        do {
            let container = try PersistentContainer(schema: StoreTestSchema.make(), path: path, pollInterval: 3600)
            TestAnimal(context: container.viewContext).commonName = "Okapi"
            try container.viewContext.save()
        }
        let header = try #require(FileHandle(forReadingAtPath: path)).readData(ofLength: 72)
        #expect(header[68..<72] == Data("Foli".utf8))
        // As an older Folio left it: no application id, no name.
        runSQL(path, "PRAGMA application_id = 0")
        let named = Schema(name: "Tests", StoreTestSchema.make().entities.map(\.objectType))
        let adopted = try PersistentContainer(schema: named, path: path, pollInterval: 3600)
        #expect(try adopted.viewContext.count(for: FetchRequest<TestAnimal>()) == 1)
        let stored = try adopted.coordinator.withBackend { backend in
            try (backend as! SQLiteBackend).connection.rows("SELECT value FROM folio_metadata WHERE key = 'schema'")
        }
        #expect("\(stored)".contains("\"name\":\"Tests\""))
        #expect(
            try adopted.coordinator.withBackend { try ($0 as! SQLiteBackend).connection.rows("PRAGMA application_id") }
                == [[.integer(Int64(StoreFile.applicationID))]])
    }

    @Test func emptyFilesBecomeStores() throws {
        let dir = try StoreTemporaryDirectory()
        _ = FileManager.default.createFile(atPath: dir.path("zero.sqlite"), contents: Data())
        runSQL(dir.path("blank.sqlite"), "PRAGMA user_version = 0")
        for name in ["zero.sqlite", "blank.sqlite", "absent.sqlite"] {
            let container = try PersistentContainer(schema: StoreTestSchema.make(), path: dir.path(name)) { context in
                TestAnimal(context: context).commonName = "Seed"
            }
            #expect(try container.viewContext.count(for: FetchRequest<TestAnimal>()) == 1, "\(name)")
        }
    }

    @Test func aReadOnlyOpenMakesNoStoreWithoutASeed() throws {
        let dir = try StoreTemporaryDirectory()
        #expect(throws: StoreError.cannotOpen(path: dir.path("none.sqlite"), message: "there is no Folio store there")) {
            _ = try PersistentContainer(schema: StoreTestSchema.make(), path: dir.path("none.sqlite"), readOnly: true)
        }
        #expect(dir.snapshot().isEmpty)
    }
}
