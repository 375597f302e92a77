import FolioTestSupport
import Foundation
import Testing

@testable import FolioStore

/// A merge visits only the to-many lists another save could have changed.
/// The reference is the rule every list followed when each merge visited
/// all of them: a list without unsaved changes reads the store again, an
/// unordered one with changes keeps only its changes (the store's members
/// read again around them), an ordered one with changes loses the deleted
/// members. After each random save of another context, every list the view
/// context holds must read as that rule says, lists the merge left alone included.
@MainActor
@Suite struct MembershipMergeTests {
    /// What a list was just before a merge.
    struct ListBefore {
        let object: ManagedObject
        let property: PropertyDescription
        let exists: Bool
        let hasChanges: Bool
        let ids: [Int64]
        let added: Set<Int64>
        let removed: Set<Int64>
    }

    @Test func everyListReadsAsIfTheMergeHadVisitedAll() async throws {
        var random = ResultsRandom.fromEnvironment()
        print("MembershipMergeTests seed: \(random.seed) (FOLIO_SEED=\(random.seed) replays it)")
        let container = try PersistentContainer(schema: StoreTestSchema.make(), path: nil)
        let view = container.viewContext
        try MembershipScenario.seed(view)
        var merged: [ChangeSet] = []
        let token = view.observeChanges { if $0.origin == .otherContext { merged.append($0) } }
        let writer = container.newBackgroundContext()
        var held: [ManagedObject] = []
        for round in 0..<150 {
            held = try MembershipScenario.changeUnsaved(view, &random, holding: held)
            if random.next() % 6 == 0 { view.rollback() }
            let before = snapshot(view)
            let seed = random.next()
            let heard = merged.count
            guard try await writer.perform({ try MembershipScenario.randomSave($0, seed: seed) }) else { continue }
            #expect(await waitUntil { merged.count == heard + 1 }, "round \(round): the save was not merged")
            guard merged.count == heard + 1 else { break }
            let deleted = merged[heard].deleted
            let stored = try await storedMembers(container, before)
            for list in before where list.object.context === view && !list.object.isDeleted {
                let label =
                    "seed \(random.seed) round \(round): \(list.object.objectID).\(list.property.name) after \(merged[heard]) \(merged[heard].updated), before: exists \(list.exists) changes \(list.hasChanges) ids \(list.ids)"
                let expected = expectedMembers(list, stored: stored[key(list)] ?? [], deleted: deleted)
                let now = members(list, stored: stored[key(list)] ?? [])
                if list.property.isOrdered {
                    #expect(now == expected, "\(label)")
                } else {
                    #expect(Set(now) == Set(expected), "\(label)")
                }
            }
            // No checkInvariants(): an ordered list kept for its unsaved changes keeps a member
            // another save moved away (only deleted members leave it), before and after this change.
            await Task.yield()
        }
        token.cancel()
    }

    func key(_ list: ListBefore) -> String { "\(list.object.objectID).\(list.property.name)" }

    /// Every list of every object the context holds, as it is now.
    func snapshot(_ context: ObjectContext) -> [ListBefore] {
        context.registeredObjects.filter { !$0.isDeleted }.flatMap { o in
            o.meta.toManys.map { p in
                let list = o.manys[p.slot]
                return ListBefore(
                    object: o, property: p, exists: list != nil, hasChanges: list?.hasChanges ?? false,
                    ids: list?.ids ?? [], added: list?.added ?? [], removed: list?.removed ?? [])
            }
        }
    }

    /// The old rule's outcome for one list.
    func expectedMembers(_ list: ListBefore, stored: [Int64], deleted: Set<ObjectID>) -> [Int64] {
        guard list.exists && list.hasChanges else { return stored }
        if !list.property.isOrdered {
            return stored.filter { !list.removed.contains($0) && !list.added.contains($0) } + list.ids.filter(list.added.contains)
        }
        let gone = Set(deleted.filter { $0.entityName == list.property.target.name }.map(\.rowID))
        return list.ids.filter { !gone.contains($0) }
    }

    /// What reading the list would give now, without reading it (so the lists keep their state for later rounds).
    func members(_ list: ListBefore, stored: [Int64]) -> [Int64] {
        guard let now = list.object.manys[list.property.slot] else { return stored }
        if now.isLoaded { return now.ids }
        return stored.filter { !now.removed.contains($0) && !now.added.contains($0) } + now.ids
    }

    /// The stored members of each saved object's lists, read by a fresh context.
    func storedMembers(_ container: PersistentContainer, _ lists: [ListBefore]) async throws -> [String: [Int64]] {
        let wanted = lists.filter { !$0.object.objectID.isTemporary && $0.object.context != nil }
            .map { ($0.object.objectID, $0.property.name) }
        let pairs = try await container.performBackgroundTask { context in
            wanted.map { id, name -> (String, [Int64]) in
                let o = context.object(with: id)
                return ("\(id).\(name)", context.members(o, o.meta.byName[name]!).map(\.rowID))
            }
        }
        return Dictionary(pairs, uniquingKeysWith: { a, _ in a })
    }
}
