import FolioAppSupport
import FolioResults
import FolioStore
import FolioTable
import FolioTerminal
import Foundation

/// A row of the search benchmark: a name of digits, in about 100 sections.
final class SearchBenchRow: ManagedObject {
    @Managed var name: String
    @Managed var group: Int

    override class var entity: EntityDescription {
        EntityDescription(SearchBenchRow.self, properties: [
            .attribute(\SearchBenchRow.name, "name", defaultValue: ""),
            .attribute(\SearchBenchRow.group, "group", defaultValue: 0, indexed: true),
        ])
    }
}

/// The apps' list screen over the benchmark's rows, searching names.
@MainActor
final class SearchBenchController: ResultsTableController<SearchBenchRow> {
    override func configure(_ cell: TableViewCell, with row: SearchBenchRow) {
        cell.textLabel?.text = row.name
    }
}

/// `folio-bench search --rows N [--rounds R] [--json]`: a keystroke in the
/// search field until the table is updated and its frame drawn (the
/// controller's request change and its change report, as the apps do),
/// beside a plain re-fetch of the same filter (`performFetch`, `reloadData`,
/// the frame) in the same run, on the same store, and the store's share of
/// a keystroke (the filter's scan for IDs alone, `scan_*`). The keystroke's
/// figures are printed under both `keystroke_*` and `filter_keystroke_*`. Each round types four
/// random digits and erases them: filters matching about 52%, 6%, 0.6% and
/// 0.05% of the rows, narrowing and widening.
@MainActor
func runSearchBench(_ arguments: [String]) {
    let options = BenchOptions(arguments, suite: "search", defaultRows: 1_000_000, minimumRows: 1_000, valueOptions: ["--rounds"])
    let rounds = Int(options.values["--rounds"] ?? "") ?? 6
    do {
        let result = try SearchBench.run(rows: options.rows, rounds: max(1, rounds))
        if options.json {
            let body = result.sorted { $0.key < $1.key }.map { "\"\($0.key)\": \(String(format: "%.3f", $0.value))" }
            print("{" + body.joined(separator: ", ") + "}")
        } else {
            print("search, \(options.rows) rows, \(rounds) rounds of 8 keystrokes (ms):")
            for key in result.keys.sorted() { print("  \(key): \(String(format: "%.3f", result[key]!))") }
        }
    } catch {
        FileHandle.standardError.write(Data("folio-bench search: \(error)\n".utf8))
        exit(1)
    }
}

@MainActor
enum SearchBench {
    static func run(rows n: Int, rounds: Int) throws -> [String: Double] {
        var random = ResultsBench.Random(seed: 0x5EA2C4)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("folio-bench-search-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let container = try PersistentContainer(schema: Schema([SearchBenchRow.self]), path: directory.appendingPathComponent("search.sqlite").path)
        let context = container.viewContext
        context.undoManager = nil
        try ResultsBench.fill(context, rows: n, random: &random) { random in
            let row = SearchBenchRow(context: context)
            row.name = ResultsBench.name(&random)
            row.group = random.below(100)
        }
        var request = FetchRequest<SearchBenchRow>(sortBy: [SortDescriptor(\.group), SortDescriptor(\.name)])
        request.fetchBatchSize = 20
        func screen() throws -> SearchBenchController {
            let results = FetchedResultsController(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: \SearchBenchRow.group)
            let controller = try SearchBenchController(title: "Rows", results: results)
            controller.searches([\SearchBenchRow.name])
            controller.viewWillAppear()
            return controller
        }
        let live = try screen()
        let plain = try screen()
        var frame = Screen(width: 80, height: 24)
        let bounds = Rect(x: 0, y: 0, width: 80, height: 24)
        live.draw(into: &frame, in: bounds)
        plain.draw(into: &frame, in: bounds)
        _ = live.handle(.key(Key(.character("/"))))

        var keystroke: [Double] = []
        var refetch: [Double] = []
        var scan: [Double] = []
        var shown: [Int] = []
        for _ in 0..<rounds {
            let digits = (0..<4).map { _ in Character("\(random.below(10))") }
            let texts = (1...4).map { String(digits.prefix($0)) } + (0...3).reversed().map { String(digits.prefix($0)) }
            let keys = digits.map { Key(.character($0)) } + Array(repeating: Key(.backspace), count: 4)
            for (key, text) in zip(keys, texts) {
                keystroke.append(ResultsBench.measureMS {
                    _ = live.handle(.key(key))
                    live.draw(into: &frame, in: bounds)
                })
                refetch.append(try ResultsBench.measureMS {
                    plain.results.fetchRequest.stringFilters = text.isEmpty ? [] : [
                        StringFilter(\SearchBenchRow.name, .contains(text), options: [.caseInsensitive, .diacriticInsensitive]),
                    ]
                    try plain.results.performFetch()
                    plain.tableView.reloadData()
                    plain.draw(into: &frame, in: bounds)
                })
                // The store's share: the filter's scan for IDs alone, as the request change makes it.
                var scanRequest = FetchRequest<SearchBenchRow>()
                scanRequest.stringFilters = plain.results.fetchRequest.stringFilters
                scan.append(try ResultsBench.measureMS { _ = try context.fetchIDs(scanRequest) })
                // Both screens must show the same rows, or the comparison means nothing.
                let liveRows = live.tableView.numberOfRowsInAllSections, plainRows = plain.tableView.numberOfRowsInAllSections
                guard liveRows == plainRows else {
                    throw BenchMismatch(text: text, live: liveRows, plain: plainRows)
                }
                shown.append(liveRows)
            }
        }
        let p50 = ResultsBench.percentile(keystroke, 0.5), refetch50 = ResultsBench.percentile(refetch, 0.5)
        return [
            "keystroke_p50_ms": p50, "keystroke_p99_ms": ResultsBench.percentile(keystroke, 0.99),
            // The names the bulk-speed table uses for the same figures.
            "filter_keystroke_p50_ms": p50, "filter_keystroke_p99_ms": ResultsBench.percentile(keystroke, 0.99),
            "refetch_p50_ms": refetch50, "refetch_p99_ms": ResultsBench.percentile(refetch, 0.99),
            "refetch_over_keystroke_p50": refetch50 / max(p50, 0.001),
            "scan_p50_ms": ResultsBench.percentile(scan, 0.5), "scan_p99_ms": ResultsBench.percentile(scan, 0.99),
            "rows_shown_median": Double(shown.sorted()[shown.count / 2]),
        ]
    }

    struct BenchMismatch: Error, CustomStringConvertible {
        let text: String, live: Int, plain: Int
        var description: String { "search '\(text)': the live table has \(live) rows, the re-fetched one \(plain)" }
    }
}
