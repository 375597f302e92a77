import FolioResults
import FolioStore
import FolioTestSupport
import Foundation
import Testing

/// Random changes to related objects that keys and filters read through —
/// renamed, deleted (refused by a deny rule, or nullifying), brought back by
/// rollbacks and undos, changed by another context — followed by
/// controllers reading through three relationships (one to the same
/// entity). After every step each controller shows what a fresh fetch
/// shows, reached only through reports its table accepted.
@MainActor @Suite struct ControllerRelatedKeyModelTests {
    static func watches(on context: ObjectContext) throws -> [ResultsWatch<LinkedItem>] {
        let byKind = FetchRequest<LinkedItem>(sortBy: [SortDescriptor(\.kind?.order), SortDescriptor(\.name)])
        let rankTwo = FetchRequest<LinkedItem>(predicate: #Predicate { $0.kind?.rank == 2 }, sortBy: [SortDescriptor(\.name)])
        let byShelf = FetchRequest<LinkedItem>(sortBy: [
            SortDescriptor(\.shelf?.label), SortDescriptor(\.kind?.rank), SortDescriptor(\.name),
        ])
        let byParent = FetchRequest<LinkedItem>(sortBy: [SortDescriptor(\.parent?.name), SortDescriptor(\.name)])
        let groupByKind = FetchRequest<LinkedItem>(
            predicate: #Predicate { $0.group == 1 },
            sortBy: [SortDescriptor(\.kind?.order, order: .reverse), SortDescriptor(\.name)])
        var filtered = FetchRequest<LinkedItem>(sortBy: [SortDescriptor(\.name)])
        filtered.stringFilters = [StringFilter(anyOf: [\LinkedItem.shelf?.label], .contains("a"), options: [.caseInsensitive])]
        return [
            try ResultsWatch(byKind, in: context, sectionKey: \LinkedItem.kind?.order),
            try ResultsWatch(rankTwo, in: context, sectionKey: nil),
            try ResultsWatch(byShelf, in: context, sectionKey: \LinkedItem.shelf?.label),
            try ResultsWatch(byParent, in: context, sectionKey: \LinkedItem.parent?.name),
            try ResultsWatch(groupByKind, in: context, sectionKey: nil),
            try ResultsWatch(filtered, in: context, sectionKey: nil),
        ]
    }

    @Test(arguments: TestBackend.allCases)
    func randomRelatedChangesKeepEveryControllerPlaced(_ backend: TestBackend) async throws {
        var random = ResultsRandom.fromEnvironment()
        print("seed:", random.seed, "backend:", backend)
        let store = try await backend.makeStore()
        let container = try PersistentContainer(schema: LinkedTestSchema.make(), store: store.description)
        let context = container.viewContext
        let background = container.newBackgroundContext()
        // Both contexts change kinds and shelves: each save keeps what it changed.
        context.mergePolicy = .mergeByPropertyObjectTrump
        background.performAndWait { other in other.mergePolicy = .mergeByPropertyObjectTrump }
        func letter() -> String { String(UnicodeScalar(UInt8(65 + Int.random(in: 0..<6, using: &random)))) }
        func all<T: ManagedObject>(_ type: T.Type) throws -> [T] { try context.fetch(FetchRequest<T>()) as [T] }
        func newKind() {
            let kind = LinkedKind(context: context)
            kind.order = letter()
            kind.rank = .random(in: 0..<4, using: &random)
        }
        func newShelf() {
            let shelf = LinkedShelf(context: context)
            shelf.label = letter() + ["a", "b"].randomElement(using: &random)!
        }
        func newItem() throws {
            let item = LinkedItem(context: context)
            item.name = letter()
            item.group = .random(in: 0..<3, using: &random)
            item.kind = try all(LinkedKind.self).randomElement(using: &random)
            item.shelf = Bool.random(using: &random) ? try all(LinkedShelf.self).randomElement(using: &random) : nil
            item.parent = Bool.random(using: &random) ? try all(LinkedItem.self).randomElement(using: &random) : nil
        }
        for _ in 0..<4 { newKind(); newShelf() }
        for _ in 0..<16 { try newItem() }
        try context.save()
        let watches = try Self.watches(on: context)
        var refused = 0, merges = 0, undone = 0
        let token = context.observeChanges { if $0.origin == .otherContext { merges += 1 } }
        for round in 0..<400 {
            await Task.yield()
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let items = try all(LinkedItem.self), kinds = try all(LinkedKind.self), shelves = try all(LinkedShelf.self)
                switch Int.random(in: 0..<14, using: &random) {
                case 0: try newItem()
                case 1: items.randomElement(using: &random).map { context.delete($0) }
                case 2: items.randomElement(using: &random)?.name = letter()
                case 3: items.randomElement(using: &random)?.kind = kinds.randomElement(using: &random)
                case 4: items.randomElement(using: &random)?.shelf = shelves.randomElement(using: &random)
                case 5: items.randomElement(using: &random)?.parent = items.randomElement(using: &random)
                case 6, 7: kinds.randomElement(using: &random)?.order = letter()
                case 8: kinds.randomElement(using: &random)?.rank = .random(in: 0..<4, using: &random)
                case 9: kinds.randomElement(using: &random).map { context.delete($0) }
                case 10: shelves.randomElement(using: &random)?.label = letter() + ["a", "b"].randomElement(using: &random)!
                case 11: shelves.randomElement(using: &random).map { context.delete($0) }
                case 12: Bool.random(using: &random) ? newKind() : newShelf()
                default: items.randomElement(using: &random)?.group = .random(in: 0..<3, using: &random)
                }
            }
            let what: String
            switch Int.random(in: 0..<12, using: &random) {
            case 0, 1, 2:
                what = "processed"
                context.processPendingChanges()
            case 3, 4, 5:
                do {
                    try context.save()
                    what = "saved"
                } catch StoreError.deleteDenied {
                    // Refused: the changes stay unsaved; a rollback often follows, as in the apps.
                    refused += 1
                    what = "refused"
                    if Bool.random(using: &random) { context.rollback() }
                }
            case 6, 7:
                what = "rolled back"
                context.rollback()
            case 8:
                what = "undone"
                if context.undoManager?.canUndo == true { undone += 1 }
                context.undo()
            default:
                // Another context renames a saved kind or shelf that has no unsaved changes here (a key
                // changed on both sides keeps this context's object behind the store, another matter).
                what = "merged"
                context.processPendingChanges()
                let kinds = try all(LinkedKind.self).filter { !$0.objectID.isTemporary && !$0.hasChanges }.map(\.objectID)
                let shelves = try all(LinkedShelf.self).filter { !$0.objectID.isTemporary && !$0.hasChanges }.map(\.objectID)
                let kind = kinds.randomElement(using: &random), shelf = shelves.randomElement(using: &random)
                let order = letter(), rank = Int.random(in: 0..<4, using: &random), label = letter() + "a"
                let before = merges
                // A save that sets every value to what it was changes nothing, and nothing arrives.
                let changed = try background.performAndWait { other in
                    if let kind {
                        let object = other.object(with: kind, as: LinkedKind.self)
                        object.order = order
                        object.rank = rank
                    }
                    if let shelf { other.object(with: shelf, as: LinkedShelf.self).label = label }
                    let changed = other.hasChanges
                    try other.save()
                    return changed
                }
                if changed, !(await ControllerModelTests.eventually { merges > before }) {
                    Issue.record("round \(round): the other context's save never arrived")
                    return
                }
            }
            context.processPendingChanges()
            for (i, watch) in watches.enumerated() {
                watch.harness.controller.checkInvariants()
                let agrees = try watch.agreesWithFetch()
                #expect(agrees, "round \(round) (\(what)), controller \(i), \(backend), seed \(random.seed)")
                #expect(watch.problems.isEmpty, "round \(round) (\(what)), controller \(i): \(watch.problems)")
                if !agrees || !watch.problems.isEmpty { return }
            }
        }
        print("seed:", random.seed, "refused saves:", refused, "undos:", undone, "reports:", watches.map(\.reports))
        withExtendedLifetime(token) {}
    }
}
