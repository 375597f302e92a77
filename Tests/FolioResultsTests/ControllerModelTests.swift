import FolioResults
import FolioStore
import FolioTestSupport
import Foundation
import Testing

/// Random changes through a real store, followed by several controllers at
/// once: unsaved changes in the controllers' own context processed in
/// batches, saves, rollbacks, and saves of another context merged in; nil
/// and "" section keys side by side. At every processed batch each
/// controller's report, applied to its previous sections by UITableView's
/// rules, must give a fresh fetch that includes the unsaved changes, and a
/// FolioTable table fed by it must accept it; between batches nothing may
/// change unreported, and a save reports nothing its batches did not.
@MainActor @Suite struct ControllerModelTests {
    typealias Sections = [ResultsBatchApplier.Section<ObjectID, SectionIdentifier>]

    final class Watch {
        let harness: ResultsTableHarness<ResultsItem>
        let sectionKey: PartialKeyPath<ResultsItem>?
        var previous: Sections
        var problems: [String] = []
        init(harness: ResultsTableHarness<ResultsItem>, sectionKey: PartialKeyPath<ResultsItem>?, previous: Sections) {
            self.harness = harness
            self.sectionKey = sectionKey
            self.previous = previous
        }
    }

    static func requests() -> [(FetchRequest<ResultsItem>, PartialKeyPath<ResultsItem>?, Int)] {
        var byGroup = FetchRequest<ResultsItem>(
            predicate: #Predicate { $0.visible == true },
            sortBy: [SortDescriptor(\.group), SortDescriptor(\.name)])
        byGroup.fetchBatchSize = 0
        let byScore = FetchRequest<ResultsItem>(sortBy: [SortDescriptor(\.score, order: .reverse), SortDescriptor(\.name)])
        let byTag = FetchRequest<ResultsItem>(sortBy: [SortDescriptor(\.tag?.rank), SortDescriptor(\.name)])
        let byGroupDown = FetchRequest<ResultsItem>(
            predicate: #Predicate { $0.score >= 3 },
            sortBy: [SortDescriptor(\.group, order: .reverse), SortDescriptor(\.score)])
        let highTags = FetchRequest<ResultsItem>(predicate: #Predicate { $0.tag?.rank == 4 }, sortBy: [SortDescriptor(\.name)])
        let byShelf = FetchRequest<ResultsItem>(sortBy: [SortDescriptor(\.shelf), SortDescriptor(\.score)])
        return [
            (byGroup, \ResultsItem.group, 0), (byScore, nil, 4), (byTag, \ResultsItem.tag?.rank, 0), (byGroupDown, \ResultsItem.group, 3),
            (highTags, nil, 0), (byShelf, \ResultsItem.shelf, 0),
        ]
    }

    /// How big the store is and how big its batches get.
    struct Scale: CustomStringConvertible, Sendable {
        var items: Int
        var rounds: Int
        /// Every tenth round changes up to this share of the items (at least 12 changes).
        var largestShare: Double
        var description: String { "\(items) items" + (largestShare > 0 ? ", batches up to \(Int(largestShare * 100))% of them" : "") }
    }

    @Test(
        arguments: TestBackend.allCases,
        [Scale(items: 30, rounds: 600, largestShare: 0), Scale(items: 1500, rounds: 40, largestShare: 0.10)])
    func randomChangesKeepEveryControllerAndTableConsistent(_ backend: TestBackend, scale: Scale) async throws {
        var random = ResultsRandom.fromEnvironment()
        // Both contexts edit the same objects: each save keeps the keys only
        // it changed and takes the rest from the store; keys changed on both
        // sides, and this context's deletions of objects the other changed,
        // go to the object (object trump) or the store (store trump), by seed.
        let storeTrumps = Bool.random(using: &random)
        print("seed:", random.seed, "backend:", backend, scale, storeTrumps ? "store trumps" : "object trumps")
        let store = try await backend.makeStore()
        let container = try PersistentContainer(schema: ResultsTestSchema.make(), store: store.description)
        let context = container.viewContext
        let background = container.newBackgroundContext()
        context.mergePolicy = storeTrumps ? .mergeByPropertyStoreTrump : .mergeByPropertyObjectTrump
        background.performAndWait { other in other.mergePolicy = .mergeByPropertyObjectTrump }
        // The model of conflicts: objects whose merge found a key changed on both sides (the
        // context keeps its values, behind the store), and objects deleted here since the last save.
        var behind: [ObjectID: ResultsItem] = [:]
        var deleted: [ResultsItem] = []
        var kept = 0, broughtBack = 0
        // A batch rereads an object behind the store whose changes were all undone: it is no longer behind.
        func processed() { behind = behind.filter { $0.value.isDeleted || $0.value.hasChanges } }
        let shelves: [String?] = [nil, "", "A", "B"]
        var tags: [ResultsTag] = []
        var items: [ResultsItem] = []
        func letter() -> String { String(UnicodeScalar(UInt8(65 + Int.random(in: 0..<20, using: &random)))) }
        func newItem() { items.append(Self.randomItem(in: context, tags: tags, using: &random)) }
        for rank in 0..<4 {
            let tag = ResultsTag(context: context)
            tag.rank = rank * 2
            tags.append(tag)
        }
        for _ in 0..<scale.items { newItem() }
        try context.save()

        var watches: [Watch] = []
        // A save renames new objects; the table keeps its rows, so the model renames them too.
        var merges = 0
        let token = context.observeChanges { changes in
            if changes.origin == .otherContext { merges += 1 }
            guard changes.origin == .thisContext else { return }
            for watch in watches {
                watch.previous = watch.previous.map { ($0.section, $0.ids.map { changes.permanentIDs[$0] ?? $0 }) }
            }
        }
        watches = try Self.watches(on: context)

        var what = ""
        for round in 0..<scale.rounds {
            await Task.yield()  // a turn for the other main-actor tests
            let largest = max(12, Int(Double(items.count) * scale.largestShare))
            let operations = Int.random(in: 1...(round % 10 == 0 ? largest : 4), using: &random)
            for _ in 0..<operations {
                guard let item = items.randomElement(using: &random) else { newItem(); continue }
                switch Int.random(in: 0..<13, using: &random) {
                case 0, 1: newItem()
                case 2:
                    context.delete(item)
                    items.removeAll { $0 === item }
                    deleted.append(item)
                case 3: item.name = letter()
                case 4: item.group = .random(in: 0..<5, using: &random)
                case 5: item.score = .random(in: 0..<8, using: &random)
                case 6: item.visible.toggle()
                case 7: item.tag = Int.random(in: 0..<4, using: &random) == 0 ? nil : tags.randomElement(using: &random)
                case 8: tags.randomElement(using: &random)?.rank = .random(in: 0..<8, using: &random)
                case 9: tags.randomElement(using: &random)?.label = "label \(round)"
                case 10: item.shelf = shelves.randomElement(using: &random)!
                case 11:
                    item.group = .random(in: 0..<5, using: &random)
                    item.name = letter()
                default: item.score += 1
                }
            }
            switch Int.random(in: 0..<10, using: &random) {
            case 0, 1, 2, 3:
                what = "processed"
                context.processPendingChanges()
                processed()
            case 4, 5, 6:
                what = "saved"
                // A deletion of an object behind the store is dropped when the store trumps: it comes back.
                processed()
                let back = storeTrumps ? deleted.filter { behind[$0.objectID] === $0 } : []
                try context.save()
                for item in deleted {
                    let expected = back.contains { $0 === item }
                    if (item.context === context && !item.isDeleted) != expected {
                        Issue.record("round \(round): \(item.objectID) \(expected ? "did not come back" : "was not deleted")")
                        return
                    }
                }
                items += back
                kept += deleted.filter { behind[$0.objectID] === $0 }.count - back.count
                broughtBack += back.count
                behind = [:]
                deleted = []
            case 7:
                what = "rolled back"
                context.rollback()
                items.removeAll { $0.isDeleted || $0.context == nil || $0.objectID.isTemporary }
                behind = [:]
                deleted = []
            default:
                // Another context saves; its changes reach this one on the main actor. A fetch sees
                // that save before this context merges it, so this context's own batch comes first,
                // at a state a fresh fetch can show (the merge would process it first anyway).
                what = "merged"
                context.processPendingChanges()
                processed()
                let saved = items.filter { !$0.objectID.isTemporary }.map(\.objectID)
                let picked = Array(saved.shuffled(using: &random).prefix(3))
                let values = (0..<picked.count).map { _ in
                    (Int.random(in: 0..<5, using: &random), Int.random(in: 0..<8, using: &random), shelves.randomElement(using: &random)!)
                }
                // The merge keeps an object's values (behind the store) when a key it changed was changed
                // there to another value; else it adopts the stored row. The other save writes only these keys.
                for (id, value) in zip(picked, values) {
                    guard let mine = items.first(where: { $0.objectID == id }), mine.hasChanges else { behind[id] = nil; continue }
                    let was = mine.committedValues(forKeys: ["group", "score", "shelf"])
                    let theirs: [String: StoreValue] = [
                        "group": .integer(Int64(value.0)), "score": .integer(Int64(value.1)),
                        "shelf": value.2.map { .text($0) } ?? .null,
                    ]
                    let clash = theirs.contains { key, v in
                        let m = mine.storeValue(forKey: key)
                        return m != was[key] && v != was[key] && v != m
                    }
                    behind[id] = clash ? mine : nil
                }
                let before = merges
                try background.performAndWait { other in
                    for (id, value) in zip(picked, values) {
                        let item = other.object(with: id, as: ResultsItem.self)
                        item.group = value.0
                        item.score = value.1
                        item.shelf = value.2
                    }
                    let added = ResultsItem(context: other)
                    added.name = "Z"
                    try other.save()
                }
                if !(await Self.eventually { merges > before }) {
                    Issue.record("round \(round): another context's save never arrived"); return
                }
            }
            if !(try Self.expectConsistent(watches, "round \(round) (\(what)), \(backend)")) { return }
        }
        print("seed:", random.seed, "deletions of objects changed elsewhere: \(kept) kept, \(broughtBack) brought back")
        withExtendedLifetime(token) {}
    }

    /// Between batches: every controller shows a fresh fetch, changed only
    /// through reports its table accepted. False after a failure (stop there).
    static func expectConsistent(_ watches: [Watch], _ label: String, reportsEach limit: Int? = nil) throws -> Bool {
        for (i, watch) in watches.enumerated() {
            let controller = watch.harness.controller
            controller.checkInvariants()
            watch.harness.table.checkInvariants()
            let now = try truth(controller, watch.sectionKey)
            #expect(shown(controller).map(\.section) == now.map(\.section), "\(label), controller \(i)")
            #expect(shown(controller).map(\.ids) == now.map(\.ids), "\(label), controller \(i)")
            #expect(watch.previous.map(\.ids) == now.map(\.ids), "\(label), controller \(i): changed without a report")
            #expect(watch.problems.isEmpty, "\(label), controller \(i): \(watch.problems)")
            #expect(watch.harness.tableErrors.isEmpty, "\(label), controller \(i): \(watch.harness.tableErrors)")
            #expect(watch.harness.table.numberOfSections == now.count)
            if let limit {
                #expect(watch.harness.batches.count <= limit, "\(label), controller \(i): \(watch.harness.batches.count) reports")
            }
            watch.harness.reset()
            if !watch.problems.isEmpty || !watch.harness.tableErrors.isEmpty { return false }
        }
        return true
    }

    /// One controller per request of ``requests()`` on `context`, each wired
    /// to a table and checked at every report.
    static func watches(on context: ObjectContext) throws -> [Watch] {
        try requests().enumerated().map { index, entry in
            var (request, sectionKey, batchSize) = entry
            request.fetchBatchSize = batchSize
            let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: sectionKey)
            try controller.performFetch()
            let watch = Watch(
                harness: ResultsTableHarness(controller: controller), sectionKey: sectionKey,
                previous: try truth(controller, sectionKey))
            watch.harness.afterEachBatch = { batch in check(batch, watch, controller: index) }
            return watch
        }
    }

    /// At one processed batch: the report applied to the previous sections
    /// gives a fresh fetch (or `known`, what the store is known to hold when
    /// it cannot be read), with the contract's per-object rules.
    static func check(_ batch: FetchedResultsChanges, _ watch: Watch, controller index: Int, known: Sections? = nil) {
        do {
            let now = try known ?? truth(watch.harness.controller, watch.sectionKey)
            let applied = try ResultsBatchApplier.apply(batch, to: watch.previous, dataSource: now)
            if applied.map(\.ids) != now.map(\.ids) {
                watch.problems.append("applied \(batch.objectChanges) gives \(applied.map(\.ids)), not \(now.map(\.ids))")
            }
            if Set(now.map(\.section)).count != now.count { watch.problems.append("section identifiers repeat: \(now.map(\.section))") }
            for change in batch.objectChanges where change.type == .move && change.indexPath == change.newIndexPath {
                watch.problems.append("equal-path move \(change)")
            }
            var kinds: [ObjectID: [ResultsChangeType]] = [:]
            for change in batch.objectChanges { kinds[change.id, default: []].append(change.type) }
            for (id, types) in kinds where !(types.count == 1 || Set(types) == [.delete, .insert]) {
                watch.problems.append("\(id) reported as \(types)")
            }
            watch.previous = now
        } catch {
            watch.problems.append("controller \(index): \(error)")
        }
    }

    /// A new item with random keys (a letter for its name, often a tag, any shelf).
    static func randomItem(in context: ObjectContext, tags: [ResultsTag], using random: inout ResultsRandom) -> ResultsItem {
        let item = ResultsItem(context: context)
        item.name = String(UnicodeScalar(UInt8(65 + Int.random(in: 0..<20, using: &random))))
        item.group = .random(in: 0..<5, using: &random)
        item.score = .random(in: 0..<8, using: &random)
        item.visible = .random(in: 0..<4, using: &random) > 0
        item.tag = Int.random(in: 0..<5, using: &random) == 0 ? nil : tags.randomElement(using: &random)
        item.shelf = ([nil, "", "A", "B"] as [String?]).randomElement(using: &random)!
        return item
    }

    /// Waits, within a generous deadline, for something the main actor will do.
    static func eventually(_ condition: () -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(20)
        while !condition() && Date() < deadline { try? await Task.sleep(for: .milliseconds(5)) }
        return condition()
    }

    /// The sections a fresh fetch gives, unsaved changes included.
    static func truth(_ controller: FetchedResultsController<ResultsItem>, _ sectionKey: PartialKeyPath<ResultsItem>?) throws -> Sections {
        try ResultsWatch.freshSections(of: controller, sectionKey: sectionKey)
    }

    /// The sections the controller shows.
    static func shown(_ controller: FetchedResultsController<ResultsItem>) -> Sections {
        ResultsWatch.shownSections(of: controller)
    }
}
