import CSQLite
import FolioTestSupport
import Foundation
import Testing

@testable import FolioStore

/// Version 2 of the test animal's store: one attribute more, so opening v1 needs a migration.
final class MigratedAnimal: ManagedObject {
    @Managed var commonName: String
    @Managed var rank: Int
    override class var entity: EntityDescription {
        EntityDescription(
            MigratedAnimal.self, name: "TestAnimal",
            properties: [
                .attribute(\MigratedAnimal.commonName, "commonName"),
                .attribute(\MigratedAnimal.rank, "rank", defaultValue: 0),
            ])
    }
}

/// Finding 7 (read-only): a read-only container reads beside a writer that
/// holds the write lock, and writes nothing: no reader row, no migration, no
/// checkpoint, no save.
@MainActor
@Suite struct ReadOnlyStoreTests {
    func readers(_ path: String) -> Int {
        var db: OpaquePointer?
        sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, nil)
        defer { sqlite3_close(db) }
        var statement: OpaquePointer?
        sqlite3_prepare_v2(db, "SELECT count(*) FROM folio_readers", -1, &statement, nil)
        defer { sqlite3_finalize(statement) }
        return sqlite3_step(statement) == SQLITE_ROW ? Int(sqlite3_column_int64(statement, 0)) : -1
    }

    @Test func aReadOnlyContainerReadsBesideAWriterHoldingTheLock() throws {
        let dir = try StoreTemporaryDirectory()
        let path = dir.path("zoo.sqlite")
        _ = try PersistentContainer(schema: StoreTestSchema.make(), path: path, pollInterval: 3600) {
            TestAnimal(context: $0).commonName = "Ocelot"
        }
        var writer: OpaquePointer?
        #expect(sqlite3_open(path, &writer) == SQLITE_OK)
        defer { sqlite3_close(writer) }
        #expect(
            sqlite3_exec(
                writer, "BEGIN IMMEDIATE; INSERT INTO TestAnimal (id, commonName, habitat, legs) VALUES (99, 'Tapir', '', 4)",
                nil, nil, nil) == SQLITE_OK)
        // A writable open would wait for the lock (its reader row) up to the busy timeout, an hour here.
        let reader = try PersistentContainer(schema: StoreTestSchema.make(), path: path, readOnly: true, busyTimeout: 3600)
        #expect(try reader.viewContext.fetch(FetchRequest<TestAnimal>()).map(\.commonName) == ["Ocelot"])
        #expect(sqlite3_exec(writer, "COMMIT", nil, nil, nil) == SQLITE_OK)
        #expect(try reader.viewContext.count(for: FetchRequest<TestAnimal>()) == 2)
    }

    @Test func aReadOnlyContainerWritesNothing() throws {
        let dir = try StoreTemporaryDirectory()
        let path = dir.path("zoo.sqlite")
        // A writer keeps its saves in the log (nothing checkpointed yet) while the reader comes and goes.
        let writer = try PersistentContainer(schema: StoreTestSchema.make(), path: path, pollInterval: 3600)
        TestAnimal(context: writer.viewContext).commonName = "Ocelot"
        try writer.viewContext.save()
        // The writer's own follower records its position after the save; let it, so only the reader could write.
        writer.checkForExternalChanges()
        let readersBefore = readers(path)
        let before = dir.snapshot(excluding: ["zoo.sqlite-shm"])
        do {
            let reader = try PersistentContainer(schema: StoreTestSchema.make(), path: path, readOnly: true)
            let c = reader.viewContext
            #expect(try c.fetch(FetchRequest<TestAnimal>()).map(\.commonName) == ["Ocelot"])
            TestAnimal(context: c).commonName = "Tapir"
            #expect(throws: StoreError.readOnly(path: path)) { try c.save() }
            #expect(throws: StoreError.readOnly(path: path)) { try c.performWrite { TestAnimal(context: c).commonName = "Okapi" } }
            #expect(readers(path) == readersBefore)
        }
        // The -shm index holds readers' marks, not data; the file and the log are as they were.
        #expect(dir.snapshot(excluding: ["zoo.sqlite-shm"]) == before)
        #expect(readers(path) == readersBefore)
    }

    @Test func aReadOnlyOpenNeverMigrates() throws {
        let dir = try StoreTemporaryDirectory()
        let path = dir.path("zoo.sqlite")
        _ = try PersistentContainer(schema: StoreTestSchema.make(), path: path, pollInterval: 3600) {
            TestAnimal(context: $0).commonName = "Ocelot"
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(throws: StoreError.migrationNeeded(path: path, reason: "TestAnimal.rank is not stored yet")) {
            _ = try PersistentContainer(schema: Schema(version: 2, [MigratedAnimal.self]), path: path, readOnly: true)
        }
        // SQLite may have made its (empty) log and index beside a file in a writable folder; no data was written.
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect((StoreFile.size(of: path + "-wal") ?? 0) == 0)
        #expect(throws: StoreError.newerSchema(stored: 1, current: 0)) {
            _ = try PersistentContainer(schema: StoreTestSchema.make(version: 0), path: path, readOnly: true)
        }
    }
}
