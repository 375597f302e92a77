import FolioPostgres
import FolioStore
import FolioTestSupport
import Foundation
import Testing

/// A pull keeps the keys and many-to-many rows a waiting save holds, so
/// the server's changes to them arrive only when that save is pushed: the
/// push reads back what it touched and the replica ends equal to the server.
@MainActor
@Suite struct ReplicaReadBackTests {
    let cluster: PostgresCluster
    let uri: String
    let dir: StoreTemporaryDirectory

    init() async throws {
        cluster = try await PostgresCluster.shared()
        uri = try await cluster.makeDatabase(prefix: "readback")
        dir = try StoreTemporaryDirectory()
    }

    func replica(_ name: String, policy: MergePolicy = .error) throws -> PersistentContainer {
        let container = try PersistentContainer(
            schema: PartitionTestSchema.make(),
            store: .postgreSQL(uri, replica: dir.path(name)), syncsAutomatically: false)
        container.syncMergePolicy = policy
        return container
    }

    func server() throws -> [String] {
        let container = try PersistentContainer(schema: PartitionTestSchema.make(), store: .postgreSQL(uri))
        return try PartitionTestSchema.dump(container.newBackgroundContext())
    }

    func named(_ type: PartitionGroup.Type, _ name: String, in context: ObjectContext) throws -> PartitionGroup {
        try #require(try context.fetch(FetchRequest<PartitionGroup>()).first { $0.name == name })
    }

    func named(_ type: PartitionItem.Type, _ name: String, in context: ObjectContext) throws -> PartitionItem {
        try #require(try context.fetch(FetchRequest<PartitionItem>()).first { $0.name == name })
    }

    /// A's save waits (a conflict on `value` holds it) while its pull brings B's changes, then is pushed.
    @Test func aWaitingSaveEndsWithTheServersLinksAndRows() async throws {
        let a = try replica("a.sqlite"), b = try replica("b.sqlite", policy: .mergeByPropertyObjectTrump)
        let ctx = a.viewContext
        for name in ["g1", "g2", "g3"] { PartitionGroup(context: ctx).name = name }
        for name in ["i", "j", "k"] { PartitionItem(context: ctx).name = name }
        try ctx.save()
        _ = try await a.syncNow()
        _ = try await b.syncNow()

        // B: a link to i and g2, an edit of i, and j deleted.
        let bc = b.viewContext
        let bi = try named(PartitionItem.self, "i", in: bc)
        bi.tags.insert(try named(PartitionGroup.self, "g2", in: bc))
        bi.value = 2
        bi.shelf = "b"
        bc.delete(try named(PartitionItem.self, "j", in: bc))
        try bc.save()
        _ = try await b.syncNow()

        // A: the same edit of i (a conflict under `.error`), links on both sides of B's link, and an edit of j.
        let ai = try named(PartitionItem.self, "i", in: ctx)
        ai.value = 1
        ai.tags.insert(try named(PartitionGroup.self, "g1", in: ctx))
        try named(PartitionItem.self, "k", in: ctx).tags.insert(try named(PartitionGroup.self, "g2", in: ctx))
        try named(PartitionItem.self, "j", in: ctx).shelf = "a"
        try ctx.save()
        let held = try await a.syncNow()
        #expect(held.pushed == 0)
        a.syncMergePolicy = .mergeByPropertyObjectTrump
        _ = try await a.syncNow()
        #expect(a.syncStatus?.waitingChanges == 0)

        let expected = try server()
        #expect(expected.contains("i i 1 b - - - g1+g2"))
        #expect(!expected.contains { $0.hasPrefix("i j ") })
        let here = try PartitionTestSchema.dump(a.newBackgroundContext())
        #expect(here == expected, "replica \(here), server \(expected)")
        _ = try await b.syncNow()
        #expect(try PartitionTestSchema.dump(b.newBackgroundContext()) == expected)
    }

    /// A deletion the server refuses (a member guarded by it arrived there) brings back the rows its cascade took
    /// here, on the server as on every replica.
    @Test func aRefusedDeletionBringsBackWhatItsCascadeTookEverywhere() async throws {
        let a = try replica("a.sqlite", policy: .mergeByPropertyObjectTrump),
            b = try replica("b.sqlite", policy: .mergeByPropertyObjectTrump)
        let ctx = a.viewContext
        let g = PartitionGroup(context: ctx)
        g.name = "g"
        for name in ["i", "j"] {
            let item = PartitionItem(context: ctx)
            item.name = name
            item.keeper = g
        }
        try ctx.save()
        _ = try await a.syncNow()
        _ = try await b.syncNow()

        // B: an item guarded by g (a deletion of g is denied), and an edit of i.
        let bc = b.viewContext
        let k = PartitionItem(context: bc)
        k.name = "k"
        k.guardian = try named(PartitionGroup.self, "g", in: bc)
        try named(PartitionItem.self, "i", in: bc).value = 5
        try bc.save()
        _ = try await b.syncNow()

        // A deletes g, which cascades to i and j here, before hearing of k.
        ctx.delete(try named(PartitionGroup.self, "g", in: ctx))
        try ctx.save()
        _ = try await a.syncNow()
        _ = try await b.syncNow()

        let expected = try server()
        #expect(expected.contains("g g") && expected.contains("i i 5  g - - -") && expected.contains("i j 0  g - - -"))
        for (name, container) in [("a", a), ("b", b)] {
            let here = try PartitionTestSchema.dump(container.newBackgroundContext())
            #expect(here == expected, "replica \(name) \(here), server \(expected)")
        }
    }
}
