import FolioResults
import FolioStore
import FolioTestSupport
import Foundation
import Testing

/// Core Data's string forms (`FetchRequest(entityName:)`,
/// `SortDescriptor(key:ascending:)`, `sectionNameKeyPath: "tag.rank"`) give
/// exactly what the key-path forms give — results, sections and every
/// delegate call — and a key or entity the schema lacks is refused at
/// `performFetch` (and by `fetch`) with an error that names it.
@MainActor @Suite struct ControllerStringKeyTests {
    /// One request in both spellings.
    struct Twin {
        let named: FetchRequest<ResultsItem>
        let namedSection: String?
        let typed: FetchRequest<ResultsItem>
        let typedSection: PartialKeyPath<ResultsItem>?
    }

    static func twins() -> [Twin] {
        func named(_ keys: [(String, Bool)], _ predicate: Predicate<ResultsItem>? = nil) -> FetchRequest<ResultsItem> {
            var request = FetchRequest<ResultsItem>(entityName: "ResultsItem")
            request.predicate = predicate
            request.sortDescriptors = keys.map { SortDescriptor<ResultsItem>(key: $0.0, ascending: $0.1) }
            return request
        }
        let visible = #Predicate<ResultsItem> { $0.visible == true }
        return [
            // A to-one path with an optional chain, as the section key, descending.
            Twin(
                named: named([("tag.rank", false), ("name", true)]), namedSection: "tag.rank",
                typed: FetchRequest(sortBy: [SortDescriptor(\.tag?.rank, order: .reverse), SortDescriptor(\.name)]),
                typedSection: \ResultsItem.tag?.rank),
            // An optional attribute whose nil and "" are different sections.
            Twin(
                named: named([("shelf", true), ("score", true)]), namedSection: "shelf",
                typed: FetchRequest(sortBy: [SortDescriptor(\.shelf), SortDescriptor(\.score)]), typedSection: \ResultsItem.shelf),
            // Unsectioned, through a to-one's text, under a predicate.
            Twin(
                named: named([("tag.label", true), ("group", false), ("name", true)], visible), namedSection: nil,
                typed: FetchRequest(
                    predicate: visible,
                    sortBy: [
                        SortDescriptor(\.tag?.label), SortDescriptor(\.group, order: .reverse),
                        SortDescriptor(\.name),
                    ]),
                typedSection: nil),
        ]
    }

    @Test func stringKeysGiveTheKeyPathFormsResultsAndReportsUnderRandomChanges() throws {
        var random = ResultsRandom.fromEnvironment()
        print("seed:", random.seed)
        let directory = try StoreTemporaryDirectory()
        let container = try PersistentContainer(schema: ResultsTestSchema.make(), path: directory.path("keys.sqlite"))
        let context = container.viewContext
        let shelves: [String?] = [nil, "", "A", "B"]
        var tags: [ResultsTag] = []
        var items: [ResultsItem] = []
        func letter() -> String { String(UnicodeScalar(UInt8(65 + Int.random(in: 0..<12, using: &random)))) }
        func newItem() {
            let item = ResultsItem(context: context)
            item.name = letter()
            item.group = .random(in: 0..<4, using: &random)
            item.score = .random(in: 0..<6, using: &random)
            item.visible = .random(in: 0..<4, using: &random) > 0
            item.tag = Int.random(in: 0..<4, using: &random) == 0 ? nil : tags.randomElement(using: &random)
            item.shelf = shelves.randomElement(using: &random)!
            items.append(item)
        }
        for rank in 0..<4 {
            let tag = ResultsTag(context: context)
            tag.rank = rank
            tag.label = ["", "x", "y", "x"][rank]
            tags.append(tag)
        }
        for _ in 0..<20 { newItem() }
        try context.save()

        // The same object is described the same way to both recorders.
        let describe: (ResultsItem) -> String = { "\($0.name)#\(ObjectIdentifier($0).hashValue)" }
        var pairs:
            [(
                FetchedResultsController<ResultsItem>, ResultsRecordingDelegate<ResultsItem>,
                FetchedResultsController<ResultsItem>, ResultsRecordingDelegate<ResultsItem>
            )] = []
        for twin in Self.twins() {
            let named = FetchedResultsController(
                fetchRequest: twin.named, managedObjectContext: context,
                sectionNameKeyPath: twin.namedSection, cacheName: nil)
            let typed = FetchedResultsController(
                fetchRequest: twin.typed, managedObjectContext: context,
                sectionNameKeyPath: twin.typedSection, cacheName: nil)
            let namedLines = ResultsRecordingDelegate<ResultsItem>(describe: describe)
            let typedLines = ResultsRecordingDelegate<ResultsItem>(describe: describe)
            named.delegate = namedLines
            typed.delegate = typedLines
            try named.performFetch()
            try typed.performFetch()
            pairs.append((named, namedLines, typed, typedLines))
        }

        var reported = 0
        for round in 0..<200 {
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                guard let item = items.randomElement(using: &random) else { newItem(); continue }
                switch Int.random(in: 0..<9, using: &random) {
                case 0, 1: newItem()
                case 2:
                    context.delete(item)
                    items.removeAll { $0 === item }
                case 3: item.name = letter()
                case 4: item.tag = Int.random(in: 0..<4, using: &random) == 0 ? nil : tags.randomElement(using: &random)
                case 5: tags.randomElement(using: &random)!.rank = .random(in: 0..<5, using: &random)
                case 6: tags.randomElement(using: &random)!.label = ["", "x", "y", "z"].randomElement(using: &random)!
                case 7: item.shelf = shelves.randomElement(using: &random)!
                default:
                    item.score = .random(in: 0..<6, using: &random)
                    item.visible.toggle()
                }
            }
            switch Int.random(in: 0..<6, using: &random) {
            case 0, 1: context.processPendingChanges()
            case 2, 3, 4: try context.save()
            default:
                context.rollback()
                items.removeAll { $0.isDeleted || $0.context == nil || $0.objectID.isTemporary }
            }
            for (index, (named, namedLines, typed, typedLines)) in pairs.enumerated() {
                #expect(namedLines.lines == typedLines.lines, "round \(round), request \(index)")
                #expect(Self.layout(named) == Self.layout(typed), "round \(round), request \(index)")
                let fetchedByName: [ResultsItem] = try context.fetch(named.fetchRequest)
                let fetchedByKeyPath: [ResultsItem] = try context.fetch(typed.fetchRequest)
                #expect(fetchedByName.map(\.objectID) == fetchedByKeyPath.map(\.objectID), "round \(round), request \(index)")
                reported += namedLines.lines.count
                if namedLines.lines != typedLines.lines { return }
                namedLines.reset()
                typedLines.reset()
            }
        }
        // The run moved rows: the comparison was not of empty reports.
        #expect(reported > 200)
    }

    @Test func aKeyTheSchemaLacksIsRefusedAtPerformFetchByName() throws {
        let store = try Self.store()
        let context = store.context
        let cases: [(sort: String, section: String?, expected: String)] = [
            ("tag.rnak", "tag.rnak", "'tag.rnak' (ResultsTag has no property 'rnak')"),
            ("nmae", nil, "'nmae' (ResultsItem has no property 'nmae')"),
            ("name", "shelff", "'shelff' (ResultsItem has no property 'shelff')"),
            ("name.count", nil, "'name.count' (ResultsItem.name is an attribute, not a to-one relationship)"),
            ("tag", nil, "'tag' (ResultsItem.tag is a relationship, not an attribute)"),
            ("tag.items.name", nil, "'tag.items.name' (ResultsTag.items is a to-many relationship)"),
            ("", nil, "'' (ResultsItem has no property '')"),
        ]
        for (sort, section, expected) in cases {
            var request = FetchRequest<ResultsItem>(entityName: "ResultsItem")
            request.sortDescriptors = [SortDescriptor(key: sort, ascending: true)]
            let controller = FetchedResultsController(
                fetchRequest: request, managedObjectContext: context,
                sectionNameKeyPath: section, cacheName: nil)
            let error = #expect(throws: StoreError.self, "sort \(sort), section \(section ?? "nil")") { try controller.performFetch() }
            #expect(error.map { "\($0)" }?.contains(expected) == true, "\(error.map { "\($0)" } ?? "no error")")
            #expect(error.map { "\($0)" }?.contains("is not a stored property of ResultsItem") == true)
            #expect(controller.fetchedObjects == nil)
            if section == nil {
                let fetchError = #expect(throws: StoreError.self) { _ = try context.fetch(request) as [ResultsItem] }
                #expect(fetchError.map { "\($0)" }?.contains(expected) == true, "\(fetchError.map { "\($0)" } ?? "no error")")
            }
        }
    }

    @Test func anotherEntitysNameIsRefusedAtPerformFetchAndFetch() throws {
        let store = try Self.store()
        let context = store.context
        for name in ["ResultsTag", "Animal"] {
            var request = FetchRequest<ResultsItem>(entityName: name)
            request.sortDescriptors = [SortDescriptor(key: "name", ascending: true)]
            let controller = FetchedResultsController(
                fetchRequest: request, managedObjectContext: context,
                sectionNameKeyPath: nil as String?, cacheName: nil)
            let expected = "FetchRequest<ResultsItem>(entityName: \"\(name)\") names '\(name)', not the entity it fetches (ResultsItem)"
            let error = #expect(throws: StoreError.self) { try controller.performFetch() }
            #expect(error.map { "\($0)" } == expected)
            #expect(controller.fetchedObjects == nil)
            for fetch in [
                { _ = try context.fetch(request) as [ResultsItem] }, { _ = try context.count(for: request) },
                { _ = try context.fetchIDs(request) },
            ] {
                let fetchError = #expect(throws: StoreError.self) { try fetch() }
                #expect(fetchError.map { "\($0)" } == expected)
            }
        }
        // The entity's own name is accepted.
        var own = FetchRequest<ResultsItem>(entityName: "ResultsItem")
        own.sortDescriptors = [SortDescriptor(key: "name", ascending: true)]
        #expect(try context.fetch(own).map(\.name) == ["Ant", "Bee", "Cod"])
    }

    @Test func aStringSectionKeyMatchesAKeyPathSortOnTheSamePropertyAndNoOther() throws {
        let store = try Self.store()
        let context = store.context
        let controller = FetchedResultsController(
            fetchRequest: FetchRequest<ResultsItem>(sortBy: [SortDescriptor(\.group), SortDescriptor(\.name)]),
            managedObjectContext: context, sectionNameKeyPath: "group", cacheName: nil)
        try controller.performFetch()
        #expect(Self.layout(controller).sections == [SectionIdentifier("0"), SectionIdentifier("1")])

        let mismatched = FetchedResultsController(
            fetchRequest: FetchRequest<ResultsItem>(sortBy: [SortDescriptor(key: "name", ascending: true)]),
            managedObjectContext: context, sectionNameKeyPath: "tag.rank", cacheName: nil)
        let error = #expect(throws: FetchedResultsError.self) { try mismatched.performFetch() }
        #expect(error.map { "\($0)" }?.contains("tag.rank") == true, "\(error.map { "\($0)" } ?? "no error")")
        #expect(error.map { "\($0)" }?.contains("name") == true)
    }

    /// A store with three items in two groups.
    @MainActor struct Store {
        let directory: StoreTemporaryDirectory
        let container: PersistentContainer
        var context: ObjectContext { container.viewContext }
    }

    static func store() throws -> Store {
        let directory = try StoreTemporaryDirectory()
        let container = try PersistentContainer(schema: ResultsTestSchema.make(), path: directory.path("keys.sqlite"))
        for (index, name) in ["Ant", "Bee", "Cod"].enumerated() {
            let item = ResultsItem(context: container.viewContext)
            item.name = name
            item.group = index % 2
        }
        try container.viewContext.save()
        return Store(directory: directory, container: container)
    }

    /// The sections and their objects as the controller shows them.
    struct Layout: Equatable {
        let sections: [SectionIdentifier]
        let objects: [[ObjectID]]
    }

    static func layout(_ controller: FetchedResultsController<ResultsItem>) -> Layout {
        let snapshot = controller.snapshot()
        return Layout(sections: snapshot.sectionIdentifiers, objects: snapshot.itemIdentifiers)
    }
}
