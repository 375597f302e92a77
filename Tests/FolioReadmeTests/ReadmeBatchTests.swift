import FolioStore
import Testing

/// The README's batch example (after the library tour), compiled and run here so that it stays true.
@MainActor
@Suite struct ReadmeBatchTests {
    @Test func theBatchExampleRuns() throws {
        let container = try PersistentContainer(schema: Schema([Book.self]), path: nil)

        var next = 0
        try container.viewContext.execute(
            BatchInsertRequest<Book>(handler: { (book: inout BatchInsertValues<Book>) in
                if next == 10_000 { return true }
                book[\.title] = "Volume \(next)"; next += 1
                return false
            }))
        try container.viewContext.execute(
            BatchUpdateRequest<Book>(predicate: #Predicate { $0.shelf == "" }).setting(\.shelf, to: "Unsorted"))
        try container.viewContext.execute(BatchDeleteRequest<Book>(predicate: #Predicate { $0.title == "Volume 0" }))

        let books: [Book] = try container.viewContext.fetch(FetchRequest<Book>())
        #expect(books.count == 9_999)
        #expect(books.allSatisfy { $0.shelf == "Unsorted" } && !books.contains { $0.title == "Volume 0" })
    }
}
