import FolioResults
import FolioStore
import Foundation

/// `folio-bench reorder --rows N [--json]`: one save that renames a group
/// whose members are sectioned and sorted by the group's name, as
/// Zootastic's "change a classification's order" does: every member of
/// that group moves to another section in one report, though no member row
/// is written. The same save runs at N and at N/10 rows in the same run; a
/// report built in O(k log n) keeps the cost of a move about the same at
/// both sizes (the ratio printed), and the store's own share of the save
/// (the same rename with no controller) is the baseline.
@MainActor
func runReorderBench(_ options: [String]) {
    let parsed = BenchOptions(options, suite: "reorder", defaultRows: 100_000, minimumRows: 2_600)
    do {
        let big = try ReorderBench.run(rows: parsed.rows)
        let small = try ReorderBench.run(rows: max(2_600, parsed.rows / 10))
        let ratio = big.perMoveUS / small.perMoveUS
        // The machine's own growth for the same number of lookups at both sizes.
        let machine =
            ReorderBench.lookupNS(rows: parsed.rows, lookups: big.moves)
            / ReorderBench.lookupNS(rows: max(2_600, parsed.rows / 10), lookups: big.moves)
        if parsed.json {
            let figures: [(String, Double)] = [
                ("rows", Double(parsed.rows)), ("reorder_moves", Double(big.moves)), ("reorder_ms", big.reportMS),
                ("reorder_store_ms", big.storeMS), ("reorder_per_move_us", big.perMoveUS),
                ("reorder_small_rows", Double(small.rows)), ("reorder_small_per_move_us", small.perMoveUS),
                ("reorder_per_move_ratio", ratio), ("reorder_lookup_ratio", machine),
                ("reorder_ratio_beyond_lookups", ratio / machine),
            ]
            print("{" + figures.map { "\"\($0.0)\": \(ResultsBench.number($0.1))" }.joined(separator: ", ") + "}")
        } else {
            for figure in [small, big] {
                print(
                    "reorder     rows \(figure.rows): renaming one of 26 groups moves \(figure.moves) rows to another section; "
                        + "save to didChangeContent \(ResultsBench.format(figure.reportMS)) ms (\(ResultsBench.format(figure.perMoveUS)) us a move); "
                        + "the same save with no controller \(ResultsBench.format(figure.storeMS)) ms")
            }
            print(
                "reorder     cost a move at \(big.rows) rows / at \(small.rows) rows: \(ResultsBench.format(ratio))x (1x: the report grows with the moves, not with n)"
            )
            print(
                "reorder     the same number of random lookups (hash table, then binary search) at \(big.rows) / at \(small.rows) keys: "
                    + "\(ResultsBench.format(machine))x; a move grows \(ResultsBench.format(ratio / machine))x beyond that (the log n and the caches' share)"
            )
        }
    } catch {
        ResultsBench.fail("\(error)", suite: "reorder")
    }
}

enum ReorderBench {
    /// The baseline for growth with n: ns a lookup of `lookups` random keys
    /// among `rows`, each found in a hash table and then ranked by binary
    /// search in a sorted array, as a move finds its row and its place
    /// (median of 5). A plain O(log n) access grows too, as n outgrows the caches.
    static func lookupNS(rows: Int, lookups: Int) -> Double {
        var random = ResultsBench.Random(seed: 0xBA5E_11E5 ^ UInt64(rows))
        let keys = (0..<rows).map { _ in Int64(bitPattern: random.next() >> 1) }.sorted()
        var slots = [Int64: Int32](minimumCapacity: rows)
        for (i, key) in keys.enumerated() { slots[key] = Int32(i) }
        let probes = (0..<max(1, lookups)).map { _ in keys[Int(random.next() % UInt64(rows))] }
        var times: [Double] = [], found = 0
        for _ in 0..<5 {
            let start = ResultsBench.now()
            for probe in probes {
                found &+= Int(slots[probe] ?? 0)
                var low = 0, high = keys.count
                while low < high {
                    let middle = (low + high) / 2
                    if keys[middle] < probe { low = middle + 1 } else { high = middle }
                }
                found &+= low
            }
            times.append(Double(ResultsBench.now() - start) / Double(probes.count))
        }
        // Both answers agree for every probe, so this never fails; it keeps the work from being optimised away.
        guard found % 2 == 0 else { ResultsBench.fail("a lookup disagreed with its rank", suite: "reorder") }
        return ResultsBench.percentile(times, 0.5)
    }

    struct Figure {
        var rows: Int
        var moves: Int
        /// From the save's start to the end of `didChangeContent`, median of the renames.
        var reportMS: Double
        /// The same rename saved with no controller open, median.
        var storeMS: Double
        var perMoveUS: Double { reportMS * 1000 / Double(max(1, moves)) }
    }

    /// Counts each report's row changes by kind and notes when it finished.
    final class Counter: FetchedResultsControllerDelegate {
        var finished: UInt64 = 0
        func controller(
            _ controller: AnyFetchedResultsController, didChange anObject: Any, at indexPath: IndexPath?,
            for type: ResultsChangeType, newIndexPath: IndexPath?
        ) {
            counts[type, default: 0] += 1
        }
        var counts: [ResultsChangeType: Int] = [:]
        func controllerDidChangeContent(_ controller: AnyFetchedResultsController) { finished = ResultsBench.now() }
    }

    /// A store of `rows` members in 26 groups named "b"…"z" and "a"; each
    /// round renames one group past every other ("~…"), so its section moves
    /// from the middle to the end, then back.
    @MainActor
    static func run(rows: Int) throws -> Figure {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("folio-bench-reorder-\(getpid())-\(rows)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let container = try PersistentContainer(
            schema: Schema([BenchGroup.self, BenchMember.self]),
            path: directory.appendingPathComponent("reorder.sqlite").path)
        let context = container.viewContext
        context.undoManager = nil
        let groups = "abcdefghijklmnopqrstuvwxyz".map { letter -> BenchGroup in
            let group = BenchGroup(context: context)
            group.name = String(letter)
            return group
        }
        var random = ResultsBench.Random(seed: 0xF011_0E0D ^ UInt64(rows))
        try ResultsBench.fill(context, rows: rows, random: &random) { random in
            let member = BenchMember(context: context)
            member.name = ResultsBench.name(&random)
            member.group = groups[random.below(groups.count)]
        }
        let request = FetchRequest<BenchMember>(sortBy: [SortDescriptor(\BenchMember.group?.name), SortDescriptor(\BenchMember.name)])
        let moved = groups[12]
        let names = [moved.name, "~" + moved.name]
        var round = 0
        func rename() { round += 1; moved.name = names[round % 2] }

        var controller: FetchedResultsController<BenchMember>? = FetchedResultsController(
            fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: \BenchMember.group?.name)
        let counter = Counter()
        controller!.delegate = counter
        try controller!.performFetch()
        var reports: [Double] = [], kinds: [[ResultsChangeType: Int]] = []
        for _ in 0..<5 {
            rename()
            counter.counts = [:]
            let start = ResultsBench.now()
            try context.save()
            guard counter.finished > start else { ResultsBench.fail("the rename was not reported", suite: "reorder") }
            reports.append(Double(counter.finished - start) / 1_000_000)
            kinds.append(counter.counts)
        }
        let current = moved.name
        let expected = try context.count(for: FetchRequest<BenchMember>(predicate: #Predicate { $0.group?.name == current }))
        // Each member leaves its old place and arrives at its new one: a move, or (out of a
        // deleted section into an inserted one, as UITableView needs) a delete and an insert.
        for report in kinds {
            let move = report[.move] ?? 0, left = move + (report[.delete] ?? 0), arrived = move + (report[.insert] ?? 0)
            guard left == expected, arrived == expected, report[.update] == nil else {
                ResultsBench.fail("a rename reported \(report); the group holds \(expected) members", suite: "reorder")
            }
        }
        controller = nil
        var stores: [Double] = []
        for _ in 0..<5 {
            rename()
            stores.append(try ResultsBench.measureMS { try context.save() })
        }
        return Figure(
            rows: rows, moves: expected, reportMS: ResultsBench.percentile(reports, 0.5),
            storeMS: ResultsBench.percentile(stores, 0.5))
    }
}
