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
    let dir: StoreTemporaryDirectory
    let container: PersistentContainer
    let animal: TestAnimal

    /// A saved margay, loaded in the view context.
    init() throws {
        dir = try StoreTemporaryDirectory()
        container = try PersistentContainer(schema: StoreTestSchema.make(), path: dir.path("zoo.sqlite"))
        animal = TestAnimal(context: container.viewContext)
        animal.commonName = "Margay"
        try container.viewContext.save()
    }

    /// Renames the animal in the file, as another process would after this context read it,
    /// with no history row (nothing is heard of it here), then hands the context the report
    /// of its insert and that update as one change set from another process.
    func renamedElsewhereThenReportedInserted(_ name: String) {
        var db: OpaquePointer?
        #expect(sqlite3_open(dir.path("zoo.sqlite"), &db) == SQLITE_OK)
        let sql =
            "UPDATE TestAnimal SET commonName = '\(name)', \(RowVersion.column) = \(RowVersion.column) + 1 WHERE id = \(animal.objectID.rowID)"
        #expect(sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK)
        sqlite3_close(db)
        container.viewContext.merge(ChangeSet(inserted: [animal.objectID], origin: .otherProcess))
    }

    @Test func anInsertReportedForAnObjectHeldHereBringsItsNewerValues() throws {
        #expect(!animal.isFault)
        renamedElsewhereThenReportedInserted("Kodkod")
        #expect(animal.commonName == "Kodkod")
        #expect(try container.viewContext.fetch(FetchRequest<TestAnimal>()).map(\.commonName) == ["Kodkod"])
    }

    /// Held at the row's version, it stays as it is: not a fault, which would
    /// read a later save's values unseen and let a save over them pass unchecked.
    @Test func anInsertReportedForAnObjectHeldAtTheStoredVersionLeavesItAsItIs() throws {
        let version = animal.version
        container.viewContext.merge(ChangeSet(inserted: [animal.objectID], origin: .otherProcess))
        #expect(!animal.isFault)
        #expect(animal.version == version && animal.commonName == "Margay")
    }

    @Test func anInsertReportedForAnObjectChangedHereKeepsTheChangeAndAdoptsTheRest() throws {
        animal.legs = 3
        renamedElsewhereThenReportedInserted("Kodkod")
        #expect(animal.commonName == "Kodkod")
        #expect(animal.legs == 3)
        #expect(animal.changedKeys == ["legs"])
    }
}
