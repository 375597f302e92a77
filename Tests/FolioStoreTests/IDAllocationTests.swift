import CSQLite
import FolioStore
import FolioTestSupport
import Foundation
import Testing

/// Finding 9 (IDs): permanent IDs are allocated inside the save's transaction
/// past every ID in the table, so rows that another SQLite client inserted
/// never collide with them, and past every ID handed out before, so a
/// deleted object's ID never comes back.
@MainActor
@Suite struct IDAllocationTests {
    func outside(_ path: String, _ sql: String) {
        var db: OpaquePointer?
        #expect(sqlite3_open(path, &db) == SQLITE_OK)
        defer { sqlite3_close(db) }
        sqlite3_busy_timeout(db, 5000)  // the container may be recording its reader position
        #expect(sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK, "\(sql)")
    }

    func add(_ name: String, to container: PersistentContainer) throws -> Int64 {
        let a = TestAnimal(context: container.viewContext)
        a.commonName = name
        try container.viewContext.save()
        return a.objectID.rowID
    }

    @Test func rowsInsertedByAnotherClientNeverCollideWithNewIDs() throws {
        let dir = try StoreTemporaryDirectory()
        let path = dir.path("zoo.sqlite")
        let container = try PersistentContainer(schema: StoreTestSchema.make(), path: path, pollInterval: 3600)
        #expect(try add("Ocelot", to: container) == 1)
        outside(path, "INSERT INTO TestAnimal (commonName, habitat, legs) VALUES ('Tapir', '', 4)")  // takes id 2
        #expect(try add("Okapi", to: container) == 3)
        outside(path, "INSERT INTO TestAnimal (id, commonName, habitat, legs) VALUES (40, 'Quoll', '', 4)")
        let batch = (0..<3).map { i -> TestAnimal in
            let a = TestAnimal(context: container.viewContext)
            a.commonName = "Numbat \(i)"
            return a
        }
        try container.viewContext.save()
        #expect(batch.map(\.objectID.rowID) == [41, 42, 43])
        #expect(try container.viewContext.count(for: FetchRequest<TestAnimal>()) == 7)
    }

    @Test func aDeletedObjectsIDIsNeverHandedOutAgain() throws {
        let dir = try StoreTemporaryDirectory()
        let path = dir.path("zoo.sqlite")
        let container = try PersistentContainer(schema: StoreTestSchema.make(), path: path, pollInterval: 3600)
        _ = try add("Ocelot", to: container)
        let last = try add("Tapir", to: container)
        outside(path, "DELETE FROM TestAnimal WHERE id = \(last)")
        #expect(try add("Okapi", to: container) == last + 1)
    }
}
