import FolioStore
import FolioTestSupport
import Foundation
import Testing

/// Descriptions an app builds once and keeps: each schema must own what it resolves.
final class CachedNote: ManagedObject {
    @Managed var text: String
    @Managed var book: CachedBook?
    static let description = EntityDescription(
        CachedNote.self, name: "Note",
        properties: [
            .attribute(\CachedNote.text, "text"),
            .toOne(\CachedNote.book, "book", inverse: \CachedBook.notes),
        ])
    override class var entity: EntityDescription { description }
}

final class CachedBook: ManagedObject {
    @Managed var title: String
    @Managed var notes: Set<CachedNote>
    static let description = EntityDescription(
        CachedBook.self, name: "Book",
        properties: [
            .attribute(\CachedBook.title, "title"),
            .toMany(\CachedBook.notes, "notes", inverse: \CachedNote.book),
        ])
    override class var entity: EntityDescription { description }
}

@MainActor
@Suite struct SharedDescriptionTests {
    /// Two schemas list the same kept descriptions in other orders; the
    /// first container still hands back the right classes and relationships.
    @Test func twoSchemasFromKeptDescriptionsEachResolveTheirOwn() throws {
        let dir = try StoreTemporaryDirectory()
        let first = try PersistentContainer(
            schema: Schema(name: "Library", [CachedNote.self, CachedBook.self]), path: dir.path("a.sqlite"),
            pollInterval: 3600)
        let second = try PersistentContainer(
            schema: Schema(name: "Library", [CachedBook.self, CachedNote.self]), path: dir.path("b.sqlite"),
            pollInterval: 3600)
        for container in [first, second] {
            let book = CachedBook(context: container.viewContext)
            book.title = "Dune"
            let note = CachedNote(context: container.viewContext)
            note.text = "spice"
            note.book = book
            try container.viewContext.save()
        }
        // Fresh contexts read back through each schema's own positions.
        for container in [first, second] {
            let context = container.newBackgroundContext()
            let (title, texts) = try context.performAndWait { context in
                let notes = try context.fetch(FetchRequest<CachedNote>())
                let books = try context.fetch(FetchRequest<CachedBook>())
                return (books.map(\.title), notes.map { "\($0.text) in \($0.book?.title ?? "-")" })
            }
            #expect(title == ["Dune"])
            #expect(texts == ["spice in Dune"])
        }
        #expect(first.schema.entity(named: "Note") !== second.schema.entity(named: "Note"))
        #expect(first.schema.entity(named: "Note") !== CachedNote.description)
    }
}
