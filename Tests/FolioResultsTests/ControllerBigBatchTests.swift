import FolioResults
import FolioStore
import FolioTestSupport
import Foundation
import Testing

/// Batches of thousands of changed objects, big enough that each controller's
/// engine edits their sections on several threads at once: every report,
/// applied to the previous sections by UITableView's rules, gives a fresh
/// fetch, and the tables fed by the reports accept them.
@MainActor @Suite struct ControllerBigBatchTests {
    @Test(arguments: TestBackend.allCases)
    func batchesOfThousandsKeepEveryControllerAndTableConsistent(_ backend: TestBackend) async throws {
        var random = ResultsRandom.fromEnvironment()
        print("seed:", random.seed, "backend:", backend)
        let store = try await backend.makeStore()
        let container = try PersistentContainer(schema: ResultsTestSchema.make(), store: store.description)
        let context = container.viewContext
        let tags = (0..<4).map { rank in
            let tag = ResultsTag(context: context)
            tag.rank = rank * 2
            return tag
        }
        var items = (0..<6_000).map { _ in ControllerModelTests.randomItem(in: context, tags: tags, using: &random) }
        try context.save()
        // A save renames new objects; the tables keep their rows, so the expectations rename them too (first:
        // observers run in the order they were added, and a new ID that sorts elsewhere is reported as a move).
        var watches: [ControllerModelTests.Watch] = []
        let token = context.observeChanges { changes in
            guard changes.origin == .thisContext else { return }
            for watch in watches {
                watch.previous = watch.previous.map { ($0.section, $0.ids.map { changes.permanentIDs[$0] ?? $0 }) }
            }
        }
        defer { withExtendedLifetime(token) {} }
        watches = try ControllerModelTests.watches(on: context)

        for round in 0..<6 {
            // Thousands of objects change keys that sort and section them; a
            // few hundred go and come. Half the rounds are saved, so that the
            // next batch starts from the store as well as from memory.
            let changing = Int.random(in: 2_500...4_000, using: &random)
            for item in items.shuffled(using: &random).prefix(changing) {
                switch Int.random(in: 0..<4, using: &random) {
                case 0: item.group = .random(in: 0..<5, using: &random)
                case 1: item.name = String(UnicodeScalar(UInt8(65 + Int.random(in: 0..<20, using: &random))))
                case 2: item.score = .random(in: 0..<8, using: &random)
                default:
                    item.group = .random(in: 0..<5, using: &random)
                    item.visible.toggle()
                }
            }
            let going = Set(items.indices.shuffled(using: &random).prefix(Int.random(in: 0...300, using: &random)))
            for index in going { context.delete(items[index]) }
            items = items.indices.filter { !going.contains($0) }.map { items[$0] }
            for _ in 0..<Int.random(in: 0...300, using: &random) {
                items.append(ControllerModelTests.randomItem(in: context, tags: tags, using: &random))
            }
            context.processPendingChanges()
            guard try ControllerModelTests.expectConsistent(watches, "round \(round), \(changing) changed") else { return }
            if round % 2 == 1 {
                try context.save()
                guard try ControllerModelTests.expectConsistent(watches, "round \(round), saved") else { return }
            }
        }
    }
}
