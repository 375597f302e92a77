import FolioResults
import FolioStore
import FolioTestSupport
import Foundation
import Testing

/// The controller places changed objects in memory; a fresh fetch orders
/// them with the backend's `ORDER BY`. After random saves of awkward values
/// (Unicode, combining marks in either order, canonically equivalent
/// spellings, case, NULLs, -0.0, huge and tiny doubles, infinities, dates;
/// booleans in predicates, since `Bool` is not `Comparable` for a sort) both must give the same rows in the same sections, on each
/// backend.
@MainActor
@Suite struct OrderingAgreementTests {
    static let words: [String] = [
        "", " a", "a", "A", "b", "B", "ab", "aB", "Zebra", "zebra", "10", "9",
        "\u{E9}", "e\u{301}", "E\u{301}", "\u{C9}",  // é and É, composed and decomposed
        "\u{3A9}", "\u{2126}", "\u{C5}", "\u{212B}",  // Ω and Å beside their canonically equal signs
        "q\u{323}\u{307}", "q\u{307}\u{323}",  // two marks in either order (canonically equal)
        "\u{1E0B}\u{323}", "\u{1E0D}\u{307}",  // ḍ̇ spelled two ways
        "\u{DF}", "SS", "\u{1C5}", "\u{130}", "i\u{307}", "\u{7F}", "\u{FFFD}",
        "Geoffroy\u{2019}s", "\u{65E5}\u{672C}", "\u{1F600}", "\u{1F1E9}\u{1F1EA}", "a\u{200D}b",
    ]
    static let doubles: [Double] = [
        0, -0.0, 1, -1, 0.1 + 0.2, 0.3, 1.5, -1.5, .ulpOfOne, 1e-300, -1e-300, .leastNonzeroMagnitude, -.leastNonzeroMagnitude,
        1e300, -1e300, .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .infinity, -.infinity, 9007199254740992,
    ]
    static let dates: [Date] = [
        Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: -0.0), Date(timeIntervalSince1970: -1e10),
        Date(timeIntervalSince1970: 1_700_000_000.25), Date(timeIntervalSince1970: 1_700_000_000.250001), .distantPast, .distantFuture,
    ]

    /// The requests the controllers follow, with their section key paths.
    static func requests() -> [(FetchRequest<TestItem>, PartialKeyPath<TestItem>?)] {
        [
            (FetchRequest(sortBy: [SortDescriptor(\.note)]), \TestItem.note),
            (FetchRequest(sortBy: [SortDescriptor(\.text)]), \TestItem.text),
            (FetchRequest(sortBy: [SortDescriptor(\.text, order: .reverse), SortDescriptor(\.score)]), nil),
            (FetchRequest(sortBy: [SortDescriptor(\.score, order: .reverse)]), \TestItem.score),
            (FetchRequest(sortBy: [SortDescriptor(\.ratio), SortDescriptor(\.note, order: .reverse)]), nil),
            (
                FetchRequest(
                    predicate: #Predicate { $0.flag == true }, sortBy: [SortDescriptor(\.when, order: .reverse), SortDescriptor(\.ratio)]),
                nil
            ),
            (
                FetchRequest(
                    predicate: #Predicate { $0.flag == false && $0.score != nil }, sortBy: [SortDescriptor(\.when), SortDescriptor(\.text)]),
                nil
            ),
        ]
    }

    /// A controller's sections as the server orders them: each section's name as UTF-8 bytes and its rows.
    typealias Placement = [(name: [UInt8], ids: [Int64])]

    @Test(arguments: TestBackend.allCases)
    func theControllersPlacementIsTheServersOrder(_ backend: TestBackend) async throws {
        let seed = StoreSplitMix64.seedFromEnvironment()
        print("seed:", seed, "backend:", backend)
        var rng = StoreSplitMix64(seed: seed)
        let store = try await backend.makeStore()
        let container = try PersistentContainer(schema: StoreTestSchema.make(), store: store.description)
        let reader = try PersistentContainer(schema: StoreTestSchema.make(), store: store.description)
        let context = container.viewContext
        let background = container.newBackgroundContext()
        var items: [TestItem] = []

        func fill(_ item: TestItem, _ rng: inout StoreSplitMix64) {
            item.text = Self.words.randomElement(using: &rng)!
            item.note = Int.random(in: 0..<4, using: &rng) == 0 ? nil : Self.words.randomElement(using: &rng)!
            item.score = Int.random(in: 0..<5, using: &rng) == 0 ? nil : Self.doubles.randomElement(using: &rng)!
            item.ratio = [0, -0.0, 1e-9, -1e-9, 0.5, 1e9, -1e9].randomElement(using: &rng)!
            item.when = Self.dates.randomElement(using: &rng)!
            item.flag = Bool.random(using: &rng)
        }
        for _ in 0..<40 {
            let item = TestItem(context: context)
            fill(item, &rng)
            items.append(item)
        }
        try context.save()
        let controllers = try Self.requests().map { request, section in
            let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: section)
            try controller.performFetch()
            return controller
        }

        var merges = 0
        let token = context.observeChanges { changes in if changes.origin == .otherContext { merges += 1 } }
        for round in 0..<120 {
            await Task.yield()  // a turn for the other main-actor tests
            if round % 6 == 5 {
                // Another context saves: its changes are merged into the controllers' context.
                let picked = items.shuffled(using: &rng).prefix(3).map(\.objectID)
                let values = (0..<4).map { _ in (Self.words.randomElement(using: &rng)!, Self.doubles.randomElement(using: &rng)!) }
                let before = merges
                try background.performAndWait { other in
                    for (id, value) in zip(picked, values) {
                        let item = other.object(with: id, as: TestItem.self)
                        item.text = value.0
                        item.score = value.1
                    }
                    let added = TestItem(context: other)
                    added.note = values[3].0
                    added.score = values[3].1
                    try other.save()
                }
                #expect(await waitUntil(20) { merges > before }, "round \(round): another context's save never arrived, seed \(seed)")
            } else {
                for _ in 0..<Int.random(in: 1...6, using: &rng) {
                    switch Int.random(in: 0..<10, using: &rng) {
                    case 0, 1:
                        let item = TestItem(context: context)
                        fill(item, &rng)
                        items.append(item)
                    case 2:
                        guard let item = items.randomElement(using: &rng) else { continue }
                        context.delete(item)
                        items.removeAll { $0 === item }
                    case 3: items.randomElement(using: &rng)?.note = Self.words.randomElement(using: &rng)!
                    case 4: items.randomElement(using: &rng)?.note = nil
                    case 5: items.randomElement(using: &rng)?.score = Self.doubles.randomElement(using: &rng)!
                    case 6: items.randomElement(using: &rng)?.when = Self.dates.randomElement(using: &rng)!
                    case 7: items.randomElement(using: &rng)?.flag.toggle()
                    default: if let item = items.randomElement(using: &rng) { fill(item, &rng) }
                    }
                }
                try context.save()
            }
            let fresh = reader.viewContext
            for (index, (controller, (request, section))) in zip(controllers, Self.requests()).enumerated() {
                let shown: Placement = (controller.sections ?? []).indices.map { s in
                    (Array(controller.sections![s].name.utf8), controller.objects(inSection: s).map(\.objectID.rowID))
                }
                let served = try Self.placement(request, section, in: fresh)
                #expect(shown.map(\.name) == served.map(\.name), "round \(round), controller \(index) (\(backend)): sections, seed \(seed)")
                #expect(shown.map(\.ids) == served.map(\.ids), "round \(round), controller \(index) (\(backend)): rows, seed \(seed)")
                if shown.map(\.ids) != served.map(\.ids) || shown.map(\.name) != served.map(\.name) { return }
            }
        }
        withExtendedLifetime(token) {}
    }

    /// The sections a fresh context's fetch gives, the store's `ORDER BY`
    /// alone: a section is a run of equal keys (equal by the store's order).
    static func placement(
        _ request: FetchRequest<TestItem>, _ section: PartialKeyPath<TestItem>?,
        in context: ObjectContext
    ) throws -> Placement {
        let rows = try context.fetchKeys(request, keyPaths: section.map { [$0] } ?? [])
        guard section != nil else { return [([], rows.map(\.id.rowID))] }
        var sections: Placement = []
        var last: StoreValue?
        for row in rows {
            let key = row.values[0]
            if let last, StoreValue.compare(last, key) == .orderedSame {
                sections[sections.count - 1].ids.append(row.id.rowID)
            } else {
                sections.append((Array(Self.name(key).utf8), [row.id.rowID]))
            }
            last = key
        }
        return sections
    }

    /// A section's name as Core Data forms it from its key.
    static func name(_ key: StoreValue) -> String {
        switch key {
        case .null: ""
        case .integer(let v): String(v)
        case .real(let d): d == d.rounded() && abs(d) < 9e15 ? String(Int64(d)) : String(d)
        case .text(let s): s
        case .blob(let b): b.base64EncodedString()
        }
    }
}
