import CSQLite
import FolioTestSupport
import Foundation
import Testing

@testable import FolioStore

/// A change set from elsewhere folds a row's updates into its insert (see
/// ``ChangeSet/merge(_:)``). A context that read the row between the insert
/// and the report already holds it: the report's "inserted" must bring it
/// the row's newer values, as an update's would.
@MainActor
@Suite struct MergeHeldInsertTests {
    @Test func anInsertReportedForAnObjectHeldHereBringsItsNewerValues() throws {
        let dir = try StoreTemporaryDirectory()
        let path = dir.path("zoo.sqlite")
        let container = try PersistentContainer(schema: StoreTestSchema.make(), path: path)
        let c = container.viewContext
        let animal = TestAnimal(context: c)
        animal.commonName = "Margay"
        try c.save()
        let id = animal.objectID
        #expect(animal.commonName == "Margay" && !animal.isFault)

        // Another process updates the row after this context read it (no history row: nothing is heard of it here).
        var db: OpaquePointer?
        #expect(sqlite3_open(path, &db) == SQLITE_OK)
        let sql = "UPDATE TestAnimal SET commonName = 'Kodkod', \(RowVersion.column) = \(RowVersion.column) + 1 WHERE id = \(id.rowID)"
        #expect(sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK)
        sqlite3_close(db)

        // The report of its insert and that update, as one change set from another process.
        c.merge(ChangeSet(inserted: [id], origin: .otherProcess))
        #expect(animal.commonName == "Kodkod")
        let fetched = try c.fetch(FetchRequest<TestAnimal>())
        #expect(fetched.map(\.commonName) == ["Kodkod"])
    }

    @Test func anInsertReportedForAnObjectChangedHereKeepsTheChangeAndAdoptsTheRest() throws {
        let dir = try StoreTemporaryDirectory()
        let path = dir.path("zoo.sqlite")
        let container = try PersistentContainer(schema: StoreTestSchema.make(), path: path)
        let c = container.viewContext
        let animal = TestAnimal(context: c)
        animal.commonName = "Margay"
        animal.legs = 4
        try c.save()
        animal.legs = 3
        var db: OpaquePointer?
        #expect(sqlite3_open(path, &db) == SQLITE_OK)
        let sql =
            "UPDATE TestAnimal SET commonName = 'Kodkod', \(RowVersion.column) = \(RowVersion.column) + 1 WHERE id = \(animal.objectID.rowID)"
        #expect(sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK)
        sqlite3_close(db)

        c.merge(ChangeSet(inserted: [animal.objectID], origin: .otherProcess))
        #expect(animal.commonName == "Kodkod")
        #expect(animal.legs == 3)
        #expect(animal.changedKeys == ["legs"])
    }
}
