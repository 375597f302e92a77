import FolioStore
import FolioTestSupport
import Foundation
import Testing

/// An object another process deleted while this context used it: reading
/// and writing it never crash, `isDeleted` says what happened, a write is
/// kept and the next save names the object until a rollback lets it go.
@MainActor
@Suite struct DeletedElsewhereTests {
    @Test func aWriteToAnObjectDeletedByAnotherProcessIsASaveErrorNotACrash() async throws {
        let dir = try StoreTemporaryDirectory()
        let path = dir.path("zoo.sqlite")
        let mine = try PersistentContainer(schema: StoreTestSchema.make(), path: path, pollInterval: 3600)
        let okapi = TestAnimal(context: mine.viewContext)
        okapi.commonName = "Okapi"
        let zebra = TestAnimal(context: mine.viewContext)
        zebra.commonName = "Zebra"
        try mine.viewContext.save()
        // Another process (a container of its own on the file) deletes the okapi.
        do {
            let other = try PersistentContainer(schema: StoreTestSchema.make(), path: path, pollInterval: 3600)
            let found = try other.viewContext.fetch(FetchRequest<TestAnimal>(predicate: #Predicate { $0.commonName == "Okapi" }))
            other.viewContext.delete(try #require(found.first))
            try other.viewContext.save()
        }
        mine.checkForExternalChanges()
        #expect(await waitUntil { okapi.isDeleted })
        #expect(okapi.commonName == "Okapi")
        okapi.commonName = "Okapi 2"
        #expect(okapi.commonName == "Okapi 2")
        zebra.commonName = "Zebra 2"
        #expect(mine.viewContext.hasChanges)
        do {
            try mine.viewContext.save()
            Issue.record("the save went through")
        } catch let error as StoreError {
            guard case .deletedElsewhere(let entity, _, let keys) = error else { Issue.record("\(error)"); return }
            #expect(entity == "TestAnimal" && keys == ["commonName"])
            #expect(error.description.contains("deleted elsewhere"))
        }
        // Nothing was written; a rollback lets the write go, and the next change saves.
        mine.viewContext.rollback()
        #expect(!mine.viewContext.hasChanges)
        zebra.commonName = "Zebra 3"
        try mine.viewContext.save()
        let reader = try PersistentContainer(schema: StoreTestSchema.make(), path: path, readOnly: true, pollInterval: 3600)
        #expect(try reader.viewContext.fetch(FetchRequest<TestAnimal>()).map(\.commonName) == ["Zebra 3"])
        // Deleting it again, or writing after the rollback and rolling back once more, is no crash either.
        mine.viewContext.delete(okapi)
        okapi.commonName = "Okapi 3"
        mine.viewContext.rollback()
        try mine.viewContext.save()
    }

    /// The same when a save of this context meets the deletion as a conflict.
    @Test func anObjectALosingSaveFindsDeletedTakesWritesAsWell() async throws {
        let dir = try StoreTemporaryDirectory()
        let path = dir.path("zoo.sqlite")
        let mine = try PersistentContainer(schema: StoreTestSchema.make(), path: path, pollInterval: 3600)
        mine.viewContext.mergePolicy = .mergeByPropertyObjectTrump
        let okapi = TestAnimal(context: mine.viewContext)
        okapi.commonName = "Okapi"
        try mine.viewContext.save()
        do {
            let other = try PersistentContainer(schema: StoreTestSchema.make(), path: path, pollInterval: 3600)
            other.viewContext.delete(try #require(try other.viewContext.fetch(FetchRequest<TestAnimal>()).first))
            try other.viewContext.save()
        }
        okapi.commonName = "Okapi 2"
        try mine.viewContext.save()
        #expect(okapi.isDeleted)
        okapi.commonName = "Okapi 3"
        #expect(throws: StoreError.self) { try mine.viewContext.save() }
        mine.viewContext.rollback()
        try mine.viewContext.save()
    }
}
