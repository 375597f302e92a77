import FolioResults
import FolioStore
import FolioTestSupport
import Foundation
import Testing

/// Changing a controller's request (as a search field does) is followed by a
/// change report, not a reload: rows leave and enter, sections follow, the
/// rest keep their rows.
@MainActor @Suite struct ControllerSearchTests {
    let directory: StoreTemporaryDirectory
    let container: PersistentContainer
    var context: ObjectContext { container.viewContext }

    init() throws {
        directory = try StoreTemporaryDirectory()
        container = try PersistentContainer(schema: ResultsTestSchema.make(), path: directory.path("search.sqlite"))
    }

    @discardableResult
    func item(_ name: String, group: Int = 0, score: Int = 0) -> ResultsItem {
        let item = ResultsItem(context: context)
        item.name = name
        item.group = group
        item.score = score
        return item
    }

    func grouped() -> FetchedResultsController<ResultsItem> {
        FetchedResultsController(
            fetchRequest: FetchRequest(sortBy: [SortDescriptor(\.group), SortDescriptor(\.name)]),
            managedObjectContext: context, sectionNameKeyPath: \ResultsItem.group)
    }

    static func search(_ text: String) -> [StringFilter<ResultsItem>] {
        text.isEmpty ? [] : [StringFilter(\ResultsItem.name, .contains(text), options: [.caseInsensitive, .diacriticInsensitive])]
    }

    @Test func narrowingDeletesAndWideningInserts() throws {
        item("Café", group: 1); item("Cafeteria", group: 1); item("Lion", group: 2); item("CAFE", group: 3)
        try context.save()
        let controller = grouped()
        let recorder = ResultsRecordingDelegate<ResultsItem>(describe: \.name)
        controller.delegate = recorder
        try controller.performFetch()

        try controller.updateFetchRequest { $0.stringFilters = Self.search("cafe") }
        #expect(recorder.lines == ["will", "delete section 1 '2'", "delete Lion [1, 0]", "did"])
        #expect(controller.sections?.map(\.name) == ["1", "3"])

        recorder.reset()
        try controller.updateFetchRequest { $0.stringFilters = Self.search("cafet") }
        #expect(recorder.lines == ["will", "delete section 1 '3'", "delete Café [0, 1]", "delete CAFE [1, 0]", "did"])

        recorder.reset()
        try controller.updateFetchRequest { $0.stringFilters = Self.search("") }
        #expect(
            recorder.lines == [
                "will", "insert section 1 '2'", "insert section 2 '3'",
                "insert Café [0, 1]", "insert Lion [1, 0]", "insert CAFE [2, 0]", "did",
            ])
        controller.checkInvariants()

        recorder.reset()
        try controller.updateFetchRequest { $0.stringFilters = Self.search("") }
        #expect(recorder.lines == [], "an unchanged request reports nothing")
    }

    /// A search on a text sort key is answered from the rows in memory,
    /// until anything else changes the results: then the store is asked.
    @Test func typingIsAnsweredFromMemoryUntilTheResultsChangeOtherwise() throws {
        item("Café", group: 1); item("Cafeteria", group: 1); item("Lion", group: 2)
        try context.save()
        let controller = grouped()
        try controller.performFetch()
        func names() -> [String] { controller.fetchedObjects?.map(\.name) ?? [] }

        try controller.updateFetchRequest { $0.stringFilters = Self.search("ca") }
        #expect(controller.searchesInMemory)
        try controller.updateFetchRequest { $0.stringFilters = Self.search("cafet") }
        #expect(controller.searchesInMemory && names() == ["Cafeteria"])
        try controller.updateFetchRequest { $0.stringFilters = Self.search("CA") }
        #expect(controller.searchesInMemory && names() == ["Cafeteria", "Café"])

        // A save while filtered: the kept rows no longer agree, so the next keystroke reads the store.
        item("Cat", group: 2)
        item("Zebra", group: 2)
        try context.save()
        #expect(names() == ["Cafeteria", "Café", "Cat"])
        try controller.updateFetchRequest { $0.stringFilters = Self.search("") }
        #expect(!controller.searchesInMemory && names() == ["Cafeteria", "Café", "Cat", "Lion", "Zebra"])
        try controller.updateFetchRequest { $0.stringFilters = Self.search("a") }
        #expect(controller.searchesInMemory && names() == ["Cafeteria", "Café", "Cat", "Zebra"])

        // Another String attribute's texts are read once and kept too; a text through a relationship is the store's to answer.
        try controller.updateFetchRequest { $0.stringFilters = [StringFilter(\ResultsItem.shelf, .contains("x"))] }
        #expect(controller.searchesInMemory)
        try controller.updateFetchRequest { $0.stringFilters = [StringFilter(\ResultsItem.tag?.label, .contains("x"))] }
        #expect(!controller.searchesInMemory)
    }

    /// A keystroke that changes more rows than the limit rebuilds the results
    /// and reports the sections replaced, which a table accepts as a reload.
    @Test func aLargeSearchChangeReplacesTheSections() throws {
        item("Ant", group: 1); item("Bee", group: 1); item("Cat", group: 2); item("Cow", group: 3)
        try context.save()
        let controller = grouped()
        controller.itemizedSearchLimit = 1
        let recorder = ResultsRecordingDelegate<ResultsItem>(describe: \.name)
        controller.delegate = recorder
        try controller.performFetch()
        try controller.updateFetchRequest { $0.stringFilters = Self.search("c") }
        #expect(
            recorder.lines == [
                "will", "delete section 0 '1'", "delete section 1 '2'", "delete section 2 '3'",
                "insert section 0 '2'", "insert section 1 '3'", "did",
            ])
        recorder.reset()
        try controller.updateFetchRequest { $0.stringFilters = Self.search("co") }
        #expect(recorder.lines == ["will", "delete section 0 '2'", "delete Cat [0, 0]", "did"], "one row leaving is reported as such")
        recorder.reset()
        try controller.updateFetchRequest { $0.stringFilters = Self.search("") }
        #expect(recorder.lines.first == "will" && recorder.lines.filter { $0.hasPrefix("insert section") }.count == 3)
        #expect(controller.fetchedObjects?.map(\.name) == ["Ant", "Bee", "Cat", "Cow"])
        controller.checkInvariants()
    }

    @Test func aPredicateChangeReportsAndASortChangeReloads() throws {
        item("Ant", group: 1, score: 1); item("Bee", group: 1, score: 5); item("Cat", group: 2, score: 9)
        try context.save()
        let controller = grouped()
        let recorder = ResultsRecordingDelegate<ResultsItem>(describe: \.name)
        controller.delegate = recorder
        try controller.performFetch()
        try controller.updateFetchRequest { $0.predicate = #Predicate { $0.score > 3 } }
        #expect(recorder.lines == ["will", "delete Ant [0, 0]", "did"])

        recorder.reset()
        try controller.updateFetchRequest { $0.sortDescriptors = [SortDescriptor(\.group, order: .reverse), SortDescriptor(\.name)] }
        #expect(
            recorder.lines == [
                "will", "delete section 0 '1'", "delete section 1 '2'", "insert section 0 '2'", "insert section 1 '1'", "did",
            ])
        #expect(controller.sections?.map(\.name) == ["2", "1"])
    }

    @Test func aFailedChangeKeepsTheRequestAndTheResults() throws {
        item("Ant", group: 1)
        try context.save()
        let controller = grouped()
        try controller.performFetch()
        #expect(throws: FetchedResultsError.self) {
            try controller.updateFetchRequest { $0.sortDescriptors = [SortDescriptor(\.name)] }  // no longer sorted by the section key
        }
        #expect(controller.fetchRequest.sortDescriptors.count == 2)
        #expect(controller.fetchedObjects?.map(\.name) == ["Ant"])
    }

    /// A request narrows another when each of the other's filters is implied
    /// by one of its own and the predicates translate alike (bound values too).
    @Test func typingOnNarrowsAndErasingOrAnotherPredicateDoesNot() throws {
        func request(_ text: String, minimum: Int?) -> FetchRequest<ResultsItem> {
            var request = FetchRequest<ResultsItem>(sortBy: [SortDescriptor(\.name)])
            request.stringFilters = Self.search(text)
            request.predicate = minimum.map { m in #Predicate<ResultsItem> { $0.score >= m } }
            return request
        }
        #expect(try context.narrows(request("Caf", minimum: 3), request("ca", minimum: 3)))
        #expect(try context.narrows(request("straße", minimum: nil), request("SS", minimum: nil)))
        #expect(try context.narrows(request("a", minimum: 3), request("", minimum: nil)))
        #expect(try !context.narrows(request("ca", minimum: 3), request("caf", minimum: 3)))
        #expect(try !context.narrows(request("caf", minimum: 4), request("ca", minimum: 3)))
        #expect(try !context.narrows(request("caf", minimum: nil), request("ca", minimum: 3)))
        var limited = request("caf", minimum: nil)
        limited.fetchLimit = 5
        #expect(try !context.narrows(limited, request("ca", minimum: nil)))
    }

    /// Random searches interleaved with random saves: after each, the report
    /// applied to the old sections gives a fresh fetch, and a table fed by
    /// the report accepts it; a windowed request (limit) too.
    @Test(arguments: [8_192, 2]) func randomSearchesAndSavesStayConsistent(itemizedLimit: Int) async throws {
        var random = ResultsRandom.fromEnvironment()
        print("seed:", random.seed)
        let letters = ["a", "á", "A", "b", "B", "ß", "ss"]
        func word() -> String { (0..<Int.random(in: 1...4, using: &random)).map { _ in letters.randomElement(using: &random)! }.joined() }
        var items: [ResultsItem] = []
        for _ in 0..<60 {
            items.append(item(word(), group: .random(in: 0..<4, using: &random), score: .random(in: 0..<10, using: &random)))
        }
        try context.save()
        var windowed = FetchRequest<ResultsItem>(sortBy: [SortDescriptor(\.score), SortDescriptor(\.name)])
        windowed.fetchLimit = 15
        let controllers = [grouped(), FetchedResultsController(fetchRequest: windowed, managedObjectContext: context)]
        var watches: [(harness: ResultsTableHarness<ResultsItem>, previous: [ResultsBatchApplier.Section<ObjectID, SectionIdentifier>])] =
            []
        for controller in controllers {
            controller.itemizedSearchLimit = itemizedLimit  // 2: most keystrokes rebuild and replace the sections
            try controller.performFetch()
            watches.append(
                (ResultsTableHarness(controller: controller), try ControllerModelTests.truth(controller, controller.sectionNameKeyPath)))
        }
        // A save renames new objects without a report; the model renames them too.
        var renamed: [ObjectID: ObjectID] = [:]
        let token = context.observeChanges { if $0.origin == .thisContext { renamed.merge($0.permanentIDs) { $1 } } }
        defer { withExtendedLifetime(token) {} }
        var text = "", minimum: Int?
        for round in 0..<200 {
            await Task.yield()  // a turn for the other main-actor tests
            if Int.random(in: 0..<3, using: &random) == 0 {
                for _ in 0..<Int.random(in: 1...3, using: &random) {
                    switch Int.random(in: 0..<4, using: &random) {
                    case 0: items.append(item(word(), group: .random(in: 0..<4, using: &random)))
                    case 1:
                        if let victim = items.randomElement(using: &random) { context.delete(victim); items.removeAll { $0 === victim } }
                    case 2: items.randomElement(using: &random)?.name = word()
                    default: items.randomElement(using: &random)?.group = .random(in: 0..<4, using: &random)
                    }
                }
                try context.save()
            } else {
                switch Int.random(in: 0..<4, using: &random) {
                case 0: text += letters.randomElement(using: &random)!  // typing on narrows (rows re-read by ID)
                case 1: text = String(text.dropLast())  // erasing widens
                default:
                    text = Int.random(in: 0..<4, using: &random) == 0 ? "" : word()
                    minimum = Int.random(in: 0..<3, using: &random) == 0 ? Int.random(in: 0..<10, using: &random) : nil
                }
                for controller in controllers {
                    try controller.updateFetchRequest { request in
                        request.stringFilters = Self.search(text)
                        request.predicate = minimum.map { m in #Predicate<ResultsItem> { $0.score >= m } }
                    }
                }
            }
            for i in watches.indices {
                let harness = watches[i].harness, controller = harness.controller
                controller.checkInvariants()
                let now = try ControllerModelTests.truth(controller, controller.sectionNameKeyPath)
                let before = watches[i].previous
                #expect(ControllerModelTests.shown(controller).map(\.ids) == now.map(\.ids), "round \(round), controller \(i)")
                #expect(harness.batches.count <= 1, "round \(round), controller \(i)")
                if let batch = harness.batches.first {
                    let applied = try ResultsBatchApplier.apply(batch, to: before, dataSource: now)
                        .map { (section: $0.section, ids: $0.ids.map { renamed[$0] ?? $0 }) }
                    #expect(applied.map(\.ids) == now.map(\.ids), "round \(round), controller \(i): \(batch.objectChanges)")
                } else {
                    #expect(now.map(\.ids) == watches[i].previous.map(\.ids), "round \(round), controller \(i): changed without a report")
                }
                #expect(harness.tableErrors.isEmpty, "round \(round), controller \(i): \(harness.tableErrors)")
                watches[i].previous = now
                harness.reset()
                if !harness.tableErrors.isEmpty { return }
            }
        }
    }
}
