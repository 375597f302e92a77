import FolioStore
import Foundation

/// `folio-bench merge --rows N [--saves S] [--json]`: how long a background
/// context's save of one object takes to be merged into the view context
/// while the view context holds N objects the save does not touch (each with
/// its to-many loaded), against the same with none held, alternating, in one run;
/// then how a context behind by many saves folds them (``MergeCatchUp``).
@MainActor
func runMergeBench(_ options: [String]) async {
    let parsed = BenchOptions(options, suite: "merge", defaultRows: 100_000, valueOptions: ["--saves"])
    guard let saves = Int(parsed.values["--saves"] ?? "200"), saves > 0 else {
        benchUsageError("merge", "--saves needs a positive number")
    }
    do {
        let loaded = try MergeSide(holding: parsed.rows)
        let empty = try MergeSide(holding: 0)
        // A few rounds first, so that neither side pays for first use.
        for _ in 0..<5 { _ = try await loaded.oneMerge(); _ = try await empty.oneMerge() }
        var withObjects: [Double] = [], without: [Double] = []
        for round in 0..<saves {
            if round % 2 == 0 {
                withObjects.append(try await loaded.oneMerge())
                without.append(try await empty.oneMerge())
            } else {
                without.append(try await empty.oneMerge())
                withObjects.append(try await loaded.oneMerge())
            }
        }
        precondition(loaded.heldCount == parsed.rows, "the loaded side let go of its objects")
        func p(_ values: [Double], _ q: Double) -> Double { values.sorted()[min(values.count - 1, Int(Double(values.count) * q))] }
        let ratio = p(withObjects, 0.5) / p(without, 0.5)
        print("merge benchmark: a background save of one object until the view context has merged it (\(saves) saves each)")
        print(
            String(
                format: "%7d unrelated objects loaded  p50 %8.3f ms  p99 %8.3f ms", parsed.rows, p(withObjects, 0.5), p(withObjects, 0.99)))
        print(String(format: "      0 objects loaded            p50 %8.3f ms  p99 %8.3f ms", p(without, 0.5), p(without, 0.99)))
        print(String(format: "ratio of medians %5.2fx (target: near 1)", ratio))
        if parsed.json {
            print(
                String(
                    format:
                        "{\"rows\": %d, \"merge_loaded_p50_ms\": %.4f, \"merge_loaded_p99_ms\": %.4f, \"merge_empty_p50_ms\": %.4f, \"merge_empty_p99_ms\": %.4f, \"merge_ratio\": %.3f}",
                    parsed.rows, p(withObjects, 0.5), p(withObjects, 0.99), p(without, 0.5), p(without, 0.99), ratio))
        }
        MergeCatchUp.report(json: parsed.json)
    } catch {
        FileHandle.standardError.write(Data("folio-bench merge: \(error)\n".utf8))
        exit(1)
    }
}

/// One in-memory container whose view context holds `count` groups, each
/// with its (empty) `members` loaded, and one item that a background
/// context changes and saves.
@MainActor
final class MergeSide {
    private let container: PersistentContainer
    private let background: BackgroundContext
    private let itemID: ObjectID
    /// Held here as a controller holds its rows: a context keeps only unowned references.
    private let held: [BenchGroup]
    private var heard = 0
    private var heardAt: UInt64 = 0
    private var token: ObservationToken?

    var heldCount: Int { held.filter { $0.context != nil }.count }

    init(holding count: Int) throws {
        container = try PersistentContainer(schema: Schema([BenchItem.self, BenchGroup.self, BenchMember.self]), path: nil)
        let context = container.viewContext
        context.undoManager = nil
        let item = BenchItem(context: context)
        item.name = "changed by the background context"
        item.score = 0
        item.value = 0
        held = (0..<count).map { i in
            let group = BenchGroup(context: context)
            group.name = "group \(i)"
            precondition(group.members.isEmpty)  // loads the list, as a screen showing its count would
            return group
        }
        try context.save()
        itemID = item.objectID
        background = container.newBackgroundContext()
        token = context.observeChanges { [weak self] changes in
            guard let self, changes.origin == .otherContext else { return }
            heard += 1
            heardAt = DispatchTime.now().uptimeNanoseconds
        }
    }

    /// From the background save's start to the end of the view context's merge, in ms.
    func oneMerge() async throws -> Double {
        let before = heard
        let id = itemID
        let start = try await background.perform { context -> UInt64 in
            let item: BenchItem = context.object(with: id)
            item.score += 1  // a change every time, so every save is merged
            let start = DispatchTime.now().uptimeNanoseconds
            try context.save()
            return start
        }
        while heard == before { try await Task.sleep(for: .microseconds(50)) }
        return Double(heardAt - start) / 1e6
    }
}
