import Testing
import Foundation
import FolioStore
import FolioResults
import FolioTestSupport

/// Random saves through a real store, followed by several controllers at
/// once. After every save each controller's report, applied to its previous
/// sections by UITableView's rules, must give its new sections; those must
/// equal a fresh fetch; and a FolioTable table fed by it must accept it.
@MainActor @Suite struct ControllerModelTests {
    struct Watch {
        let harness: ResultsTableHarness<ResultsItem>
        let sectionKey: PartialKeyPath<ResultsItem>?
        var previous: [ResultsBatchApplier.Section<ObjectID, SectionIdentifier>]
    }

    static func requests() -> [(FetchRequest<ResultsItem>, PartialKeyPath<ResultsItem>?, Int)] {
        var byGroup = FetchRequest<ResultsItem>(predicate: #Predicate { $0.visible == true },
                                                sortBy: [SortDescriptor(\.group), SortDescriptor(\.name)])
        byGroup.fetchBatchSize = 0
        let byScore = FetchRequest<ResultsItem>(sortBy: [SortDescriptor(\.score, order: .reverse), SortDescriptor(\.name)])
        let byTag = FetchRequest<ResultsItem>(sortBy: [SortDescriptor(\.tag?.rank), SortDescriptor(\.name)])
        let byGroupDown = FetchRequest<ResultsItem>(predicate: #Predicate { $0.score >= 3 },
                                                    sortBy: [SortDescriptor(\.group, order: .reverse), SortDescriptor(\.score)])
        let highTags = FetchRequest<ResultsItem>(predicate: #Predicate { $0.tag?.rank == 4 }, sortBy: [SortDescriptor(\.name)])
        return [(byGroup, \ResultsItem.group, 0), (byScore, nil, 4), (byTag, \ResultsItem.tag?.rank, 0), (byGroupDown, \ResultsItem.group, 3),
                (highTags, nil, 0)]
    }

    @Test func randomSavesKeepEveryControllerAndTableConsistent() throws {
        let seed = StoreSplitMix64.seedFromEnvironment()
        print("seed:", seed)
        var random = StoreSplitMix64(seed: seed)
        let directory = try StoreTemporaryDirectory()
        let container = try PersistentContainer(schema: ResultsTestSchema.make(), path: directory.path("model.sqlite"))
        let context = container.viewContext
        var tags: [ResultsTag] = []
        var items: [ResultsItem] = []
        func newItem() {
            let item = ResultsItem(context: context)
            item.name = String(UnicodeScalar(UInt8(65 + Int.random(in: 0..<20, using: &random))))
            item.group = .random(in: 0..<5, using: &random)
            item.score = .random(in: 0..<8, using: &random)
            item.visible = .random(in: 0..<4, using: &random) > 0
            item.tag = Int.random(in: 0..<5, using: &random) == 0 ? nil : tags.randomElement(using: &random)
            items.append(item)
        }
        for rank in 0..<4 {
            let tag = ResultsTag(context: context)
            tag.rank = rank * 2
            tags.append(tag)
        }
        for _ in 0..<30 { newItem() }
        try context.save()

        var watches: [Watch] = []
        for (var request, sectionKey, batchSize) in Self.requests() {
            request.fetchBatchSize = batchSize
            let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: sectionKey)
            try controller.performFetch()
            let harness = ResultsTableHarness(controller: controller)
            watches.append(Watch(harness: harness, sectionKey: sectionKey, previous: try Self.truth(controller, sectionKey)))
        }

        for round in 0..<750 {
            let operations = Int.random(in: 1...(round % 10 == 0 ? 20 : 5), using: &random)
            for _ in 0..<operations {
                guard let item = items.randomElement(using: &random) else { newItem(); continue }
                switch Int.random(in: 0..<12, using: &random) {
                case 0, 1: newItem()
                case 2:
                    context.delete(item)
                    items.removeAll { $0 === item }
                case 3: item.name = String(UnicodeScalar(UInt8(65 + Int.random(in: 0..<20, using: &random))))
                case 4: item.group = .random(in: 0..<5, using: &random)
                case 5: item.score = .random(in: 0..<8, using: &random)
                case 6: item.visible.toggle()
                case 7: item.tag = Int.random(in: 0..<4, using: &random) == 0 ? nil : tags.randomElement(using: &random)
                case 8: tags.randomElement(using: &random)?.rank = .random(in: 0..<8, using: &random)
                case 9: tags.randomElement(using: &random)?.label = "label \(round)"
                case 10:
                    item.group = .random(in: 0..<5, using: &random)
                    item.name = String(UnicodeScalar(UInt8(65 + Int.random(in: 0..<20, using: &random))))
                default: item.score += 1
                }
            }
            try context.save()
            for i in watches.indices {
                let harness = watches[i].harness
                let controller = harness.controller
                controller.checkInvariants()
                harness.table.checkInvariants()
                let now = try Self.truth(controller, watches[i].sectionKey)
                let shown = Self.shown(controller)
                #expect(shown.map(\.section) == now.map(\.section), "round \(round), controller \(i)")
                #expect(shown.map(\.ids) == now.map(\.ids), "round \(round), controller \(i)")
                #expect(harness.batches.count <= 1, "round \(round), controller \(i): \(harness.batches.count) batches for one save")
                if let batch = harness.batches.first {
                    let applied = try ResultsBatchApplier.apply(batch, to: watches[i].previous, dataSource: now)
                    #expect(applied.map(\.ids) == now.map(\.ids), "round \(round), controller \(i): \(batch.objectChanges)")
                    for change in batch.objectChanges where change.type == .move {
                        #expect(change.indexPath != change.newIndexPath, "round \(round): equal-path move \(change)")
                    }
                    var kinds: [ObjectID: [ResultsChangeType]] = [:]
                    for change in batch.objectChanges { kinds[change.id, default: []].append(change.type) }
                    for (id, types) in kinds {
                        #expect(types.count == 1 || Set(types) == [.delete, .insert], "round \(round): \(id) reported as \(types)")
                    }
                } else {
                    #expect(now.map(\.ids) == watches[i].previous.map(\.ids), "round \(round), controller \(i): changed without a report")
                }
                #expect(harness.tableErrors.isEmpty, "round \(round), controller \(i): \(harness.tableErrors)")
                #expect(harness.table.numberOfSections == now.count)
                watches[i].previous = now
                harness.reset()
                if !harness.tableErrors.isEmpty { return }
            }
        }
    }

    /// The sections a fresh fetch gives.
    static func truth(_ controller: FetchedResultsController<ResultsItem>, _ sectionKey: PartialKeyPath<ResultsItem>?) throws
        -> [ResultsBatchApplier.Section<ObjectID, SectionIdentifier>] {
        var request = controller.fetchRequest
        request.fetchBatchSize = 0
        let keyed = try controller.managedObjectContext.fetchKeys(request, keyPaths: sectionKey.map { [$0] } ?? [])
        guard sectionKey != nil else { return [(SectionIdentifier(""), keyed.map(\.id))] }
        var sections: [ResultsBatchApplier.Section<ObjectID, SectionIdentifier>] = []
        for row in keyed {
            let section: SectionIdentifier
            switch row.values[0] {
            case .null: section = .nilKey
            case .integer(let v): section = SectionIdentifier(String(v))
            case .text(let v): section = SectionIdentifier(v)
            default: section = SectionIdentifier("\(row.values[0])")
            }
            if sections.last?.section == section { sections[sections.count - 1].ids.append(row.id) } else { sections.append((section, [row.id])) }
        }
        return sections
    }

    /// The sections the controller shows.
    static func shown(_ controller: FetchedResultsController<ResultsItem>) -> [ResultsBatchApplier.Section<ObjectID, SectionIdentifier>] {
        let snapshot = controller.snapshot()
        return Array(zip(snapshot.sectionIdentifiers, snapshot.itemIdentifiers).map { ($0.0, $0.1) })
    }
}
