import FolioPostgres
import FolioStore
import FolioTestSupport
import Foundation
import Testing

/// Deletions, relationships and unique values made apart: a waiting save
/// that refers to an object deleted on the server, and a deletion pushed
/// onto members the replica never saw, each follow the delete rule, on both
/// sides; a unique value taken meanwhile waits until it is changed here.
@MainActor
@Suite struct ReplicaDeleteRuleTests {
    let cluster: PostgresCluster
    let dir: StoreTemporaryDirectory

    init() async throws {
        cluster = try await PostgresCluster.shared()
        dir = try StoreTemporaryDirectory()
    }

    /// Two replicas of a new database that sync only when the test says.
    func pair(_ schema: @escaping () -> Schema) async throws -> (PersistentContainer, PersistentContainer, String) {
        let uri = try await cluster.makeDatabase(prefix: "rules")
        let make = { (name: String) throws -> PersistentContainer in
            let container = try PersistentContainer(
                schema: schema(),
                store: .postgreSQL(uri, replica: dir.path(name)), syncsAutomatically: false)
            return container
        }
        return (try make("a.sqlite"), try make("b.sqlite"), uri)
    }

    func sql(_ text: String, _ uri: String) async throws -> String {
        try await cluster.runSQL(text, database: PostgresCluster.databaseName(uri)).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func settled(_ containers: PersistentContainer...) async throws {
        for container in containers + containers {
            let report = try await container.syncNow()
            #expect(report.problem == nil && report.unsettled.isEmpty && report.waiting == 0, "\(report)")
        }
    }

    @Test func aNewObjectInAClassificationDeletedOnTheServerGoesWithIt() async throws {
        let (a, b, uri) = try await pair { StoreTestSchema.make() }
        let cats = TestClassification(context: a.viewContext)
        cats.order = "Carnivora"; cats.family = "Felidae"
        try a.viewContext.save()
        try await settled(a, b)
        let theirs = try #require(try b.viewContext.existingObject(with: cats.objectID) as? TestClassification)
        let lynx = TestAnimal(context: b.viewContext)
        lynx.commonName = "Lynx"
        lynx.classification = theirs
        try b.viewContext.save()
        a.viewContext.delete(cats)
        try a.viewContext.save()
        _ = try await a.syncNow()
        try await settled(b, a)
        #expect(try await sql("SELECT count(*) FROM \"TestAnimal\"", uri) == "0")
        for container in [a, b] {
            #expect(await waitUntil { (try? container.viewContext.count(for: FetchRequest<TestAnimal>())) == 0 })
            #expect(try container.viewContext.count(for: FetchRequest<TestClassification>()) == 0)
        }
    }

    @Test func aNewNoteOnAShelfDeletedOnTheServerLosesOnlyItsShelf() async throws {
        let (a, b, uri) = try await pair { ConflictTestSchema.make() }
        let shelf = ConflictShelf(context: a.viewContext)
        shelf.name = "Top"
        try a.viewContext.save()
        try await settled(a, b)
        let note = ConflictNote(context: b.viewContext)
        note.title = "Kept"
        note.shelf = try #require(try b.viewContext.existingObject(with: shelf.objectID) as? ConflictShelf)
        try b.viewContext.save()
        a.viewContext.delete(shelf)
        try a.viewContext.save()
        _ = try await a.syncNow()
        try await settled(b, a)
        #expect(try await sql("SELECT title || ':' || coalesce(shelf::text, '-') FROM conflicts.\"ConflictNote\"", uri) == "Kept:-")
        for container in [a, b] {
            #expect(
                await waitUntil {
                    (try? container.viewContext.fetch(FetchRequest<ConflictNote>()).map { "\($0.title):\($0.shelf?.name ?? "-")" }) == [
                        "Kept:-"
                    ]
                })
        }
    }

    @Test func aCascadePushedFromAReplicaTakesMembersItNeverSaw() async throws {
        let (a, b, uri) = try await pair { StoreTestSchema.make() }
        let cats = TestClassification(context: a.viewContext)
        cats.order = "Carnivora"; cats.family = "Felidae"
        let seen = TestAnimal(context: a.viewContext)
        seen.commonName = "Ocelot"; seen.classification = cats
        try a.viewContext.save()
        try await settled(a, b)
        b.viewContext.delete(try b.viewContext.existingObject(with: cats.objectID))
        try b.viewContext.save()
        let unseen = TestAnimal(context: a.viewContext)
        unseen.commonName = "Caracal"; unseen.classification = cats
        try a.viewContext.save()
        _ = try await a.syncNow()
        try await settled(b, a)
        #expect(try await sql("SELECT count(*) FROM \"TestAnimal\"", uri) == "0")
        #expect(try await sql("SELECT count(*) FROM \"TestClassification\"", uri) == "0")
        for container in [a, b] {
            #expect(await waitUntil { (try? container.viewContext.count(for: FetchRequest<TestAnimal>())) == 0 })
        }
    }

    @Test func aDeletionDeniedByAMemberAddedOnTheServerIsDroppedAndTheShelfComesBack() async throws {
        let (a, b, uri) = try await pair { ConflictTestSchema.make() }
        let shelf = ConflictShelf(context: a.viewContext)
        shelf.name = "Low"
        try a.viewContext.save()
        try await settled(a, b)
        b.viewContext.delete(try b.viewContext.existingObject(with: shelf.objectID))
        try b.viewContext.save()
        let book = ConflictBook(context: a.viewContext)
        book.title = "Dune"; book.shelf = shelf
        try a.viewContext.save()
        _ = try await a.syncNow()
        try await settled(b, a)
        #expect(
            try await sql(
                "SELECT s.name || ':' || b.title FROM conflicts.\"ConflictBook\" b JOIN conflicts.\"ConflictShelf\" s ON b.shelf = s.id",
                uri)
                == "Low:Dune")
        for container in [a, b] {
            #expect(
                await waitUntil {
                    (try? container.viewContext.fetch(FetchRequest<ConflictBook>()).map { "\($0.shelf?.name ?? "-"):\($0.title)" }) == [
                        "Low:Dune"
                    ]
                })
        }
    }

    @Test func aUniqueValueTakenOnTheServerWaitsUntilItIsChangedHere() async throws {
        let (a, b, uri) = try await pair { StoreTestSchema.make() }
        let first = TestZoo(context: a.viewContext)
        first.name = "Twin"
        try a.viewContext.save()
        _ = try await a.syncNow()
        let second = TestZoo(context: b.viewContext)
        second.name = "Twin"
        try b.viewContext.save()
        let refused = try await b.syncNow()
        #expect(refused.pushed == 0 && refused.waiting == 1 && refused.problem?.contains("must be unique") == true, "\(refused)")
        // The pull goes on; the server's row with the same name waits here until the local one is renamed.
        second.name = "Twin 2"
        try b.viewContext.save()
        try await settled(b, a)
        #expect(try await sql("SELECT string_agg(name, ',' ORDER BY name) FROM \"TestZoo\"", uri) == "Twin,Twin 2")
        for container in [a, b] {
            #expect(
                await waitUntil {
                    (try? container.viewContext.fetch(FetchRequest<TestZoo>(sortBy: [SortDescriptor(\.name)])).map(\.name)) == [
                        "Twin", "Twin 2",
                    ]
                }, "\((try? container.viewContext.fetch(FetchRequest<TestZoo>()).map(\.name)) ?? [])")
        }
    }

    /// A nullify rule's clearing is an edit of the keys it clears, made on
    /// what the deleting replica saw: pushed after another replica's relink
    /// of the same key, it wins over it, as any later edit of the key does
    /// under `mergeByPropertyObjectTrump` (and as in Core Data, whose save
    /// of the deletion carries the cleared key).
    @Test func aNullifyPushedAfterARelinkClearsTheKeyAsALaterEditWould() async throws {
        let (a, b, uri) = try await pair { PartitionTestSchema.make() }
        for container in [a, b] { container.syncMergePolicy = .mergeByPropertyObjectTrump }
        let old = PartitionGroup(context: a.viewContext)
        old.name = "old"
        let new = PartitionGroup(context: a.viewContext)
        new.name = "new"
        let item = PartitionItem(context: a.viewContext)
        item.name = "item"
        item.shelf = "A"
        item.lister = old
        try a.viewContext.save()
        try await settled(a, b)

        // B relinks the item and pushes; A, not having pulled that, deletes the old group (clearing the item's lister).
        let theirs = try #require(try b.viewContext.existingObject(with: item.objectID) as? PartitionItem)
        theirs.lister = try #require(try b.viewContext.existingObject(with: new.objectID) as? PartitionGroup)
        try b.viewContext.save()
        #expect(try await b.syncNow().pushed == 1)
        a.viewContext.delete(old)
        try a.viewContext.save()
        #expect(item.lister == nil)
        #expect(try await a.syncNow().pushed == 1)
        try await settled(a, b)
        #expect(try await serverDump(uri) == ["g new", "i item 0 A - - - -"])
        // Had B pushed after A, its relink would have been the later edit: the item would list "new".
    }

    /// What the server holds, as a new replica of it copies it.
    func serverDump(_ uri: String) async throws -> [String] {
        let fresh = try PersistentContainer(
            schema: PartitionTestSchema.make(), store: .postgreSQL(uri, replica: dir.path("fresh.sqlite")), syncsAutomatically: false)
        _ = try await fresh.syncNow()
        return try PartitionTestSchema.dump(fresh.newBackgroundContext())
    }

    /// Waits until each container's main context shows item `name` with `tags` (and the groups show it back).
    func expectTags(_ containers: [PersistentContainer], item name: String, _ tags: [String]) async {
        for container in containers {
            let shown = {
                let item = (try? container.viewContext.fetch(FetchRequest<PartitionItem>()))?.first { $0.name == name }
                let groups = (try? container.viewContext.fetch(FetchRequest<PartitionGroup>())) ?? []
                return [
                    item?.tags.map(\.name).sorted() ?? ["missing"],
                    groups.filter { $0.tagged.contains { $0.name == name } }.map(\.name).sorted(),
                ]
            }
            #expect(await waitUntil { shown() == [tags, tags] }, "\(shown())")
        }
    }

    /// A deletion the server refuses (a deny rule meets a member added
    /// there) brings back the rows its cascade took here, with their
    /// many-to-many links, and the references its nullify rule cleared:
    /// the save made those changes for the deletion, and neither the
    /// server nor the replica may keep them.
    @Test func aRefusedDeletionKeepsTheLinksOfTheRowsItBringsBack() async throws {
        let (a, b, uri) = try await pair { PartitionTestSchema.make() }
        let doomed = PartitionGroup(context: a.viewContext), label = PartitionGroup(context: a.viewContext)
        doomed.name = "doomed"; label.name = "label"
        let item = PartitionItem(context: a.viewContext)
        item.name = "kept"; item.keeper = doomed; item.tags = [label]
        let listed = PartitionItem(context: a.viewContext)
        listed.name = "listed"; listed.lister = doomed
        try a.viewContext.save()
        try await settled(a, b)
        b.viewContext.delete(try b.viewContext.existingObject(with: doomed.objectID))
        try b.viewContext.save()
        let guard_ = PartitionItem(context: a.viewContext)
        guard_.name = "guard"; guard_.guardian = doomed
        try a.viewContext.save()
        _ = try await a.syncNow()
        try await settled(b, a)
        let expected = ["g doomed", "g label", "i guard 0  - - doomed -", "i kept 0  doomed - - label", "i listed 0  - doomed - -"]
        #expect(try await serverDump(uri) == expected)
        for container in [a, b] { #expect(try PartitionTestSchema.dump(container.newBackgroundContext()) == expected) }
        await expectTags([a, b], item: "kept", ["label"])
    }

    /// A deletion the merge policy keeps (the row changed on the server,
    /// and the store's version trumps) keeps the row's links too.
    @Test func aDeletionThePolicyKeepsKeepsTheRowsLinks() async throws {
        let (a, b, uri) = try await pair { PartitionTestSchema.make() }
        b.syncMergePolicy = .mergeByPropertyStoreTrump
        let label = PartitionGroup(context: a.viewContext)
        label.name = "label"
        let item = PartitionItem(context: a.viewContext)
        item.name = "kept"; item.tags = [label]
        try a.viewContext.save()
        try await settled(a, b)
        b.viewContext.delete(try b.viewContext.existingObject(with: item.objectID))
        try b.viewContext.save()
        item.value = 7
        try a.viewContext.save()
        _ = try await a.syncNow()
        try await settled(b, a)
        let expected = ["g label", "i kept 7  - - - label"]
        #expect(try await serverDump(uri) == expected)
        for container in [a, b] { #expect(try PartitionTestSchema.dump(container.newBackgroundContext()) == expected) }
        await expectTags([a, b], item: "kept", ["label"])
    }
}
