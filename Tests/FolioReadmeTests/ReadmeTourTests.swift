import FolioResults
import FolioStore
import FolioTable
import FolioTerminal
import Foundation
import Testing

/// The README's tour run as its reader would run it, headless: the store
/// file, the live table on a terminal of its own, a background count, the
/// batch requests, a relationship, a subtitle cell.
@MainActor
@Suite struct ReadmeTourTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-readme-\(UUID().uuidString)")

    @Test func theTourRunsOnAStoreFileAndTheTableFollowsIt() async throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let container = try PersistentContainer(schema: Schema([Book.self]), path: folder.appendingPathComponent("books.sqlite").path)
        container.viewContext.mergePolicy = .mergeByPropertyObjectTrump
        let shelves = ShelvesController()
        shelves.context = container.viewContext
        let terminal = TestTerminal()
        let app = Application(root: NavigationController(root: shelves), driver: terminal)
        app.render()
        #expect(terminal.text.contains("Shelves"))

        let dune = Book(context: container.viewContext)
        dune.title = "Dune"
        dune.shelf = "Fiction"
        try container.viewContext.save()
        app.render()
        #expect(terminal.text.contains("Fiction") && terminal.text.contains("Dune"))

        let count = try await container.newBackgroundContext().perform { context in
            try context.count(for: FetchRequest<Book>())
        }
        #expect(count == 1)

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
        app.render()
        #expect(shelves.tableView.numberOfSections == 2)
        #expect(shelves.tableView.numberOfRows(inSection: 1) == 9_999)
    }

    @Test func relationshipsCascadeAsDeclared() throws {
        let container = try PersistentContainer(schema: Schema([Category.self, Item.self]), path: nil)
        let context = container.viewContext
        let lighting = Category(context: context)
        lighting.name = "Lighting"
        let lamp = Item(context: context)
        lamp.name = "Lamp"
        lamp.category = lighting
        try context.save()
        #expect(lighting.items.map(\.name) == ["Lamp"])
        try context.execute(BatchInsertRequest<Item>(objects: [["name": "Bulb", "category": lighting.objectID]]))
        #expect(try context.count(for: FetchRequest<Item>()) == 2)
        context.delete(lighting)
        try context.save()
        #expect(try context.count(for: FetchRequest<Item>()) == 0)
    }

    @Test func aSubtitleCellTakesTwoLinesByItself() {
        let table = TableView()
        let cell = TableViewCell(style: .subtitle, reuseIdentifier: nil)
        cell.textLabel?.text = "Okapi"
        cell.detailTextLabel?.text = "Forest"
        #expect(table.rowHeight == TableView.automaticDimension)
        #expect(cell.fittingHeight == 2)
    }
}
