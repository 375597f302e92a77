import FolioResults
import FolioStore
import FolioTestSupport
import Foundation
import Testing

/// A search as the apps make it (Zootastic's shape: sectioned by a related
/// object's key, searching an attribute that is not a sort key, nil texts
/// among them) is answered from the rows and folded texts kept in memory,
/// with the store's matches, and lets them go when it is cleared.
@MainActor @Suite struct ControllerSearchIndexTests {
    typealias Sections = [ResultsBatchApplier.Section<ObjectID, SectionIdentifier>]

    static let searched: [PartialKeyPath<ResultsItem>] = [\ResultsItem.name, \ResultsItem.shelf]
    static let options: String.CompareOptions = [.caseInsensitive, .diacriticInsensitive]

    static func search(_ text: String) -> [StringFilter<ResultsItem>] {
        text.isEmpty ? [] : [StringFilter(anyOf: searched, .contains(text), options: options)]
    }

    static func byTag(_ context: ObjectContext) -> FetchedResultsController<ResultsItem> {
        FetchedResultsController(
            fetchRequest: FetchRequest(sortBy: [SortDescriptor(\.tag?.rank), SortDescriptor(\.name)]),
            managedObjectContext: context, sectionNameKeyPath: \ResultsItem.tag?.rank)
    }

    /// Finding 8: such a search was the store's to answer, a scan of every row per keystroke.
    @Test(arguments: TestBackend.allCases)
    func searchBesideTheSortKeysUnderARelatedSectionIsAnsweredFromMemory(_ backend: TestBackend) async throws {
        let store = try await backend.makeStore()
        let container = try PersistentContainer(schema: ResultsTestSchema.make(), store: store.description)
        let context = container.viewContext
        let low = ResultsTag(context: context), high = ResultsTag(context: context)
        low.rank = 1
        high.rank = 2
        for (name, shelf, tag) in [("Lion", "Café", low), ("Zebra", nil, high), ("Cat", "attic", high), ("Emu", "CAFE", nil)]
            as [(String, String?, ResultsTag?)]
        {
            let item = ResultsItem(context: context)
            item.name = name
            item.shelf = shelf
            item.tag = tag
        }
        try context.save()
        let controller = Self.byTag(context)
        try controller.performFetch()
        func names() -> [String] { controller.fetchedObjects?.map(\.name) ?? [] }

        try controller.updateFetchRequest { $0.stringFilters = Self.search("cafe") }
        #expect(controller.searchesInMemory)
        #expect(names() == ["Emu", "Lion"])
        try controller.updateFetchRequest { $0.stringFilters = Self.search("a") }
        #expect(controller.searchesInMemory && names() == ["Emu", "Lion", "Cat", "Zebra"])
        // A related key changes during the search: its rows move, as they do without one.
        low.rank = 3
        try context.save()
        #expect(names() == ["Emu", "Cat", "Zebra", "Lion"])
        #expect(try Self.truth(controller).map(\.ids) == ControllerModelTests.shown(controller).map(\.ids))
        try controller.updateFetchRequest { $0.stringFilters = Self.search("") }
        #expect(names() == ["Emu", "Cat", "Zebra", "Lion"])
        controller.checkInvariants()
    }

    /// Finding 7: what a search keeps (the unfiltered rows, the folded
    /// texts) is let go when it is cleared, and when the field closes unused.
    @Test func clearingASearchReleasesWhatItKept() throws {
        let directory = try StoreTemporaryDirectory()
        let container = try PersistentContainer(schema: ResultsTestSchema.make(), path: directory.path("search.sqlite"))
        let context = container.viewContext
        for name in ["Ant", "Bee", "Cat"] { ResultsItem(context: context).name = name }
        try context.save()
        let controller = Self.byTag(context)
        try controller.performFetch()

        controller.prepareSearch(Self.searched, options: Self.options)
        weak let index = controller.keptSearchIndexes.first
        #expect(index != nil)
        try controller.updateFetchRequest { $0.stringFilters = Self.search("a") }
        #expect(controller.keptSearchIndexes.first === index)
        try controller.updateFetchRequest { $0.stringFilters = Self.search("") }
        controller.endSearch()
        #expect(!controller.searchesInMemory)
        #expect(index == nil, "the cleared search's texts are still held")

        // Opened and closed without a keystroke.
        controller.prepareSearch(Self.searched, options: Self.options)
        weak let unused = controller.keptSearchIndexes.first
        #expect(unused != nil)
        controller.endSearch()
        #expect(unused == nil)
    }

    /// Finding 7: a search hid a row's object by letting it go and showed
    /// the row again with a new copy loaded from the store, so every search
    /// and clear made and freed a copy of each object (with every object
    /// loaded, as Zootastic's list has them), and memory grew with it.
    @Test func rowsShownAgainAfterASearchKeepTheirObjects() throws {
        let directory = try StoreTemporaryDirectory()
        let container = try PersistentContainer(schema: ResultsTestSchema.make(), path: directory.path("search.sqlite"))
        let context = container.viewContext
        for name in ["Ant", "Bee", "Cat"] { ResultsItem(context: context).name = name }
        try context.save()
        var request = FetchRequest<ResultsItem>(sortBy: [SortDescriptor(\.name)])
        request.fetchBatchSize = 0
        let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context)
        try controller.performFetch()
        controller.itemizedSearchLimit = 1  // the rebuilding path
        controller.prepareSearch(Self.searched, options: Self.options)

        weak let bee = controller.object(at: IndexPath(row: 1, section: 0))
        weak let ant = controller.object(at: IndexPath(row: 0, section: 0))
        try controller.updateFetchRequest { $0.stringFilters = Self.search("c") }
        #expect(controller.fetchedObjects?.map(\.name) == ["Cat"])
        #expect(bee != nil && ant != nil, "a hidden row's object was let go, to be loaded again")
        try controller.updateFetchRequest { $0.stringFilters = Self.search("") }
        #expect(controller.object(at: IndexPath(row: 1, section: 0)) === bee)
        #expect(controller.object(at: IndexPath(row: 0, section: 0)) === ant)

        // Row by row too.
        controller.itemizedSearchLimit = 100
        try controller.updateFetchRequest { $0.stringFilters = Self.search("b") }
        #expect(ant != nil)
        try controller.updateFetchRequest { $0.stringFilters = Self.search("") }
        #expect(controller.object(at: IndexPath(row: 0, section: 0)) === ant)
        // Once the search ends, what it hid is the results' again, and nothing else is held.
        controller.endSearch()
        #expect(controller.keptSearchIndexes.isEmpty)
    }

    /// Random typing, erasing and saves (names, shelves, related ranks,
    /// inserts, deletes): after each, the controller shows the store's
    /// matches in order, and its report applied to the old sections gives them.
    @Test(arguments: TestBackend.allCases)
    func randomSearchesBesideTheSortKeysMatchTheStore(_ backend: TestBackend) async throws {
        var random = ResultsRandom.fromEnvironment()
        print("seed:", random.seed, "backend:", backend)
        let store = try await backend.makeStore()
        let container = try PersistentContainer(schema: ResultsTestSchema.make(), store: store.description)
        let context = container.viewContext
        let letters = ["a", "á", "A", "b", "B", "é", "E", "ß", "ss", "Ｆ", "f"]
        func word() -> String { (0..<Int.random(in: 1...4, using: &random)).map { _ in letters.randomElement(using: &random)! }.joined() }
        let tags = (0..<3).map { rank in
            let tag = ResultsTag(context: context)
            tag.rank = rank
            return tag
        }
        var items: [ResultsItem] = []
        func newItem() {
            let item = ResultsItem(context: context)
            item.name = word()
            item.shelf = Bool.random(using: &random) ? nil : word()
            item.tag = tags.randomElement(using: &random)
            items.append(item)
        }
        for _ in 0..<60 { newItem() }
        try context.save()
        let controller = Self.byTag(context)
        controller.itemizedSearchLimit = .random(in: 1...20, using: &random)
        try controller.performFetch()
        let harness = ResultsTableHarness(controller: controller)
        var previous = try Self.truth(controller)
        var text = ""
        var renamed: [ObjectID: ObjectID] = [:]
        let token = context.observeChanges { if $0.origin == .thisContext { renamed.merge($0.permanentIDs) { $1 } } }
        defer { withExtendedLifetime(token) {} }
        for round in 0..<150 {
            await Task.yield()
            switch Int.random(in: 0..<8, using: &random) {
            case 0:
                switch Int.random(in: 0..<5, using: &random) {
                case 0: newItem()
                case 1: if let victim = items.popLast() { context.delete(victim) }
                case 2: items.randomElement(using: &random)?.shelf = Bool.random(using: &random) ? nil : word()
                case 3: items.randomElement(using: &random)?.name = word()
                default: tags.randomElement(using: &random)!.rank = .random(in: 0..<5, using: &random)
                }
                try context.save()
            case 1: controller.prepareSearch(Self.searched, options: Self.options)
            case 2, 3:
                text = String(text.dropLast())
                try controller.updateFetchRequest { $0.stringFilters = Self.search(text) }
            default:
                text += letters.randomElement(using: &random)!
                try controller.updateFetchRequest { $0.stringFilters = Self.search(text) }
            }
            controller.checkInvariants()
            let now = try Self.truth(controller)
            #expect(ControllerModelTests.shown(controller).map(\.ids) == now.map(\.ids), "round \(round), text '\(text)'")
            #expect(harness.batches.count <= 1, "round \(round)")
            if let batch = harness.batches.first {
                let applied = try ResultsBatchApplier.apply(batch, to: previous, dataSource: now)
                    .map { (section: $0.section, ids: $0.ids.map { renamed[$0] ?? $0 }) }
                #expect(applied.map(\.ids) == now.map(\.ids), "round \(round), text '\(text)': \(batch.objectChanges)")
            } else {
                #expect(now.map(\.ids) == previous.map(\.ids), "round \(round), text '\(text)': changed without a report")
            }
            #expect(harness.tableErrors.isEmpty, "round \(round): \(harness.tableErrors)")
            previous = now
            harness.reset()
            if !harness.tableErrors.isEmpty { return }
        }
    }

    /// The store's matches for the controller's request, sectioned and in order.
    static func truth(_ controller: FetchedResultsController<ResultsItem>) throws -> Sections {
        try ControllerModelTests.truth(controller, \ResultsItem.tag?.rank)
    }
}
