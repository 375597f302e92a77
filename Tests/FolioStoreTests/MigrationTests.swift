import FolioStore
import FolioTestSupport
import Foundation
import Testing

/// Version 1 of a note.
final class NoteV1: ManagedObject {
    @Managed var title: String
    override class var entity: EntityDescription {
        EntityDescription(NoteV1.self, name: "Note", properties: [.attribute(\NoteV1.title, "title")])
    }
}

/// Version 2: a new attribute with a default, a new optional one, a new entity and relationship.
final class NoteV2: ManagedObject {
    @Managed var title: String
    @Managed var pinned: Bool
    @Managed var rating: Int?
    @Managed var folder: FolderV2?
    override class var entity: EntityDescription {
        EntityDescription(
            NoteV2.self, name: "Note",
            properties: [
                .attribute(\NoteV2.title, "title"),
                .attribute(\NoteV2.pinned, "pinned", defaultValue: false),
                .attribute(\NoteV2.rating, "rating"),
                .toOne(\NoteV2.folder, "folder", inverse: \FolderV2.notes),
            ])
    }
}

final class FolderV2: ManagedObject {
    @Managed var name: String
    @Managed var notes: Set<NoteV2>
    override class var entity: EntityDescription {
        EntityDescription(
            FolderV2.self, name: "Folder",
            properties: [
                .attribute(\FolderV2.name, "name"),
                .toMany(\FolderV2.notes, "notes", inverse: \NoteV2.folder),
            ])
    }
}

/// Version 3 adds a required attribute without a default: not inferable.
final class NoteV3: ManagedObject {
    @Managed var title: String
    @Managed var priority: Int
    override class var entity: EntityDescription {
        EntityDescription(
            NoteV3.self, name: "Note",
            properties: [
                .attribute(\NoteV3.title, "title"),
                .attribute(\NoteV3.priority, "priority"),
            ])
    }
}

/// A changed type: title becomes an integer.
final class NoteRetyped: ManagedObject {
    @Managed var title: Int
    override class var entity: EntityDescription {
        EntityDescription(NoteRetyped.self, name: "Note", properties: [.attribute(\NoteRetyped.title, "title")])
    }
}

@MainActor
@Suite struct MigrationTests {
    func makeV1Store(_ path: String) throws {
        let container = try PersistentContainer(schema: Schema(version: 1, [NoteV1.self]), path: path)
        for title in ["Groceries", "Ideas"] {
            let n = NoteV1(context: container.viewContext)
            n.title = title
        }
        try container.viewContext.save()
    }

    @Test func lightweightMigrationAddsEntitiesAttributesAndRelationships() throws {
        let dir = try StoreTemporaryDirectory()
        let path = dir.path("notes.sqlite")
        try makeV1Store(path)
        let container = try PersistentContainer(schema: Schema(version: 2, [NoteV2.self, FolderV2.self]), path: path)
        let c = container.viewContext
        let notes = try c.fetch(FetchRequest<NoteV2>(sortBy: [SortDescriptor(\.title)]))
        #expect(notes.map(\.title) == ["Groceries", "Ideas"])
        #expect(notes.allSatisfy { !$0.pinned && $0.rating == nil && $0.folder == nil })
        let folder = FolderV2(context: c)
        folder.name = "Home"
        notes[0].folder = folder
        notes[0].pinned = true
        try c.save()
        let again = try PersistentContainer(schema: Schema(version: 2, [NoteV2.self, FolderV2.self]), path: path)
        let pinned = try again.viewContext.fetch(FetchRequest<NoteV2>(predicate: #Predicate { $0.pinned }))
        #expect(pinned.map(\.title) == ["Groceries"])
        #expect(pinned.first?.folder?.name == "Home")
    }

    @Test func impossibleMigrationsAreClearErrorsAndChangeNothing() throws {
        let dir = try StoreTemporaryDirectory()
        let path = dir.path("notes.sqlite")
        try makeV1Store(path)
        #expect(
            throws: StoreError.migrationImpossible(
                entity: "Note", key: "priority",
                reason: "a new required attribute needs a default value for existing rows")
        ) {
            _ = try PersistentContainer(schema: Schema(version: 3, [NoteV3.self]), path: path)
        }
        #expect(throws: StoreError.migrationImpossible(entity: "Note", key: "title", reason: "its type changed from TEXT to INTEGER")) {
            _ = try PersistentContainer(schema: Schema(version: 2, [NoteRetyped.self]), path: path)
        }
        // The store still opens with its own schema and holds its data.
        let container = try PersistentContainer(schema: Schema(version: 1, [NoteV1.self]), path: path)
        #expect(try container.viewContext.count(for: FetchRequest<NoteV1>()) == 2)
    }

    @Test func newerStoreIsRefused() throws {
        let dir = try StoreTemporaryDirectory()
        let path = dir.path("notes.sqlite")
        _ = try PersistentContainer(schema: Schema(version: 2, [NoteV2.self, FolderV2.self]), path: path)
        #expect(throws: StoreError.newerSchema(stored: 2, current: 1)) {
            _ = try PersistentContainer(schema: Schema(version: 1, [NoteV1.self]), path: path)
        }
    }
}
