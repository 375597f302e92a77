import FolioStore
import Foundation

/// A note for conflict tests: attributes two saves can change independently.
public final class ConflictNote: ManagedObject {
    @Managed public var title: String
    @Managed public var body: String
    @Managed public var stars: Int
    @Managed public var tag: String?
    @Managed public var shelf: ConflictShelf?

    public override class var entity: EntityDescription {
        EntityDescription(
            ConflictNote.self,
            properties: [
                .attribute(\ConflictNote.title, "title", defaultValue: ""),
                .attribute(\ConflictNote.body, "body", defaultValue: ""),
                .attribute(\ConflictNote.stars, "stars", defaultValue: 0),
                .attribute(\ConflictNote.tag, "tag"),
                .toOne(\ConflictNote.shelf, "shelf", inverse: \ConflictShelf.notes),
            ])
    }

    /// The keys a conflict test changes, in declaration order.
    public static let keys = ["title", "body", "stars", "tag"]
}

/// A shelf for conflict tests: a unique name, books it cannot be deleted
/// with (deny), and notes that let go of it (nullify).
public final class ConflictShelf: ManagedObject {
    @Managed public var name: String
    @Managed public var books: Set<ConflictBook>
    @Managed public var notes: Set<ConflictNote>

    public override class var entity: EntityDescription {
        EntityDescription(
            ConflictShelf.self,
            properties: [
                .attribute(\ConflictShelf.name, "name", unique: true),
                .toMany(\ConflictShelf.books, "books", inverse: \ConflictBook.shelf, deleteRule: .deny),
                .toMany(\ConflictShelf.notes, "notes", inverse: \ConflictNote.shelf),
            ])
    }
}

/// A book for conflict tests, on at most one shelf.
public final class ConflictBook: ManagedObject {
    @Managed public var title: String
    @Managed public var shelf: ConflictShelf?

    public override class var entity: EntityDescription {
        EntityDescription(
            ConflictBook.self,
            properties: [
                .attribute(\ConflictBook.title, "title", defaultValue: ""),
                .toOne(\ConflictBook.shelf, "shelf", inverse: \ConflictShelf.books),
            ])
    }
}

/// The schema of the conflict tests (the worker opens its stores with it too).
public enum ConflictTestSchema {
    public static func make() -> Schema {
        Schema(name: "conflicts", [ConflictNote.self, ConflictShelf.self, ConflictBook.self])
    }
}
