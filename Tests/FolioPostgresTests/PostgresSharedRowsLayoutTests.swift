import FolioResults
import FolioStore
import FolioTestSupport
import Foundation
import Testing

@testable import FolioPostgres

/// A memo as an older build of an app declares it: a title and a body.
final class LayoutMemoOld: ManagedObject {
    @Managed var title: String
    @Managed var body: String

    override class var entity: EntityDescription {
        EntityDescription(
            LayoutMemoOld.self, name: "Memo",
            properties: [.attribute(\LayoutMemoOld.title, "title"), .attribute(\LayoutMemoOld.body, "body")])
    }
}

/// The same memo as a newer build declares it, with an attribute before the others.
final class LayoutMemoNew: ManagedObject {
    @Managed var mood: String
    @Managed var title: String
    @Managed var body: String

    override class var entity: EntityDescription {
        EntityDescription(
            LayoutMemoNew.self, name: "Memo",
            properties: [
                .attribute(\LayoutMemoNew.mood, "mood", defaultValue: ""), .attribute(\LayoutMemoNew.title, "title"),
                .attribute(\LayoutMemoNew.body, "body"),
            ])
    }
}

/// Two builds of an app in one process on one store: the rows its feed
/// hub reads are laid out as the first container's schema says, so a
/// container whose entity has other columns does not use them.
@MainActor
@Suite struct PostgresSharedRowsLayoutTests {
    @Test func aContainerOfAnotherSchemaVersionReadsItsOwnRows() async throws {
        let uri = try await PostgresCluster.shared().makeDatabase()
        // The older build opens first: the process's hub reads rows as its schema lays them out.
        let older = try PersistentContainer(schema: Schema(name: "memos", version: 1, [LayoutMemoOld.self]), store: .postgreSQL(uri))
        let newer = try PersistentContainer(schema: Schema(name: "memos", version: 2, [LayoutMemoNew.self]), store: .postgreSQL(uri))
        let controller = FetchedResultsController(
            fetchRequest: FetchRequest<LayoutMemoNew>(sortBy: [SortDescriptor(\.title)]), managedObjectContext: newer.viewContext,
            sectionNameKeyPath: nil)
        try controller.performFetch()
        let writer = try PersistentContainer(schema: Schema(name: "memos", version: 2, [LayoutMemoNew.self]), store: .postgreSQL(uri))
        let memo = LayoutMemoNew(context: writer.viewContext)
        memo.mood = "glad"
        memo.title = "groceries"
        memo.body = "eggs"
        try writer.viewContext.save()
        #expect(await waitUntil(30) { controller.fetchedObjects?.count == 1 }, "the newer build's controller shows the memo")
        let shown = try #require(controller.fetchedObjects?.first)
        #expect(shown.mood == "glad" && shown.title == "groceries" && shown.body == "eggs", "\(shown.mood), \(shown.title), \(shown.body)")
        withExtendedLifetime((older, writer)) {}
    }
}
