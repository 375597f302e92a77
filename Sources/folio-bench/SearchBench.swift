import FolioAdapters
import FolioAppSupport
import FolioPostgres
import FolioProcessSupport
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
        EntityDescription(
            SearchBenchRow.self,
            properties: [
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

/// `folio-bench search --rows N [--rounds R] [--backend sqlite|postgres|both] [--cycles C] [--json]`:
/// a keystroke in the search field until the table is updated and its frame
/// drawn (the controller's request change and its change report, as the apps
/// do; `/` readies the search first, as in the apps), beside the same-run
/// baseline: a plain re-fetch of the same filter by the store (`performFetch`,
/// `reloadData`, the frame), on the same store, and the store's share of it
/// (the filter's scan for IDs alone, `scan_*`). The keystroke's figures are
/// printed under both `keystroke_*` and `filter_keystroke_*`, with the
/// main thread's CPU time (`keystroke_cpu_*`) and every thread's
/// (`keystroke_process_cpu_*`), since wall times on a shared machine depend
/// on its load (`load_average_median`, sampled at each keystroke). A second
/// baseline is a plain loop over every name folded beforehand, counting
/// those that `String.contains` the folded text (`plain_loop_*`, and
/// `keystroke_over_plain_loop_*`); its count must equal the rows shown. Each round
/// types four random digits and erases them: filters matching about 52%,
/// 6%, 0.6% and 0.05% of the rows, narrowing and widening. Then memory:
/// resident memory idle, its peak over `--cycles` search/clear cycles
/// (`/`, four digits, Esc), and after the first and the last clear. Both
/// backends by default; PostgreSQL on a throwaway server of its own.
@MainActor
func runSearchBench(_ arguments: [String]) async {
    let options = BenchOptions(
        arguments, suite: "search", defaultRows: 1_000_000, minimumRows: 1_000,
        valueOptions: ["--rounds", "--backend", "--cycles", "--memory-of"])
    let rounds = max(1, Int(options.values["--rounds"] ?? "") ?? 6)
    let cycles = max(1, Int(options.values["--cycles"] ?? "") ?? 20)
    if let location = options.values["--memory-of"] {
        SearchBench.memoryChild(location, cycles: cycles)
        return
    }
    let backends: [String]
    switch options.values["--backend"] ?? "both" {
    case "sqlite": backends = ["sqlite"]
    case "postgres": backends = ["postgres"]
    case "both": backends = ["sqlite", "postgres"]
    default: benchUsageError("search", "--backend takes sqlite, postgres or both")
    }
    do {
        var all: [String: Double] = [:]
        for backend in backends {
            let result: [String: Double]
            if backend == "postgres" {
                let cluster = try await PostgresCluster.started()
                defer { cluster.destroy() }
                let uri = try await cluster.makeDatabase(prefix: "search")
                result = try SearchBench.run(rows: options.rows, rounds: rounds, cycles: cycles, store: uri)
            } else {
                result = try SearchBench.run(rows: options.rows, rounds: rounds, cycles: cycles, store: nil)
            }
            if !options.json {
                print("search, \(backend), \(options.rows) rows, \(rounds) rounds of 8 keystrokes (ms; memory in MB):")
                for key in result.keys.sorted() { print("  \(key): \(String(format: "%.3f", result[key]!))") }
            }
            for (key, value) in result { all[backends.count == 1 ? key : "\(backend)_\(key)"] = value }
        }
        if options.json {
            let body = all.sorted { $0.key < $1.key }.map { "\"\($0.key)\": \(String(format: "%.3f", $0.value))" }
            print("{" + body.joined(separator: ", ") + "}")
        }
    } catch {
        FileHandle.standardError.write(Data("folio-bench search: \(error)\n".utf8))
        exit(1)
    }
}

@MainActor
enum SearchBench {
    /// The seed the rows are made from (the plain filter makes the names again from it).
    static let seed: UInt64 = 0x5EA2C4

    /// The figures on the store `store` describes (a new SQLite file when nil).
    static func run(rows n: Int, rounds: Int, cycles: Int = 0, store: String? = nil) throws -> [String: Double] {
        var random = ResultsBench.Random(seed: seed)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("folio-bench-search-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let location = store ?? directory.appendingPathComponent("search.sqlite").path
        // Each phase has a container of its own, so that one's objects do not weigh on the next one's memory.
        try {
            let context = try open(location).viewContext
            context.undoManager = nil
            try ResultsBench.fill(context, rows: n, random: &random) { random in
                let row = SearchBenchRow(context: context)
                row.name = ResultsBench.name(&random)
                row.group = random.below(100)
            }
        }()
        var figures = try keystrokes(
            open(location).viewContext, rounds: rounds, random: &random, plain: PlainFilter(rows: n, seed: seed))
        // Memory in a process of its own, which has done nothing else.
        if cycles > 0 { figures.merge(try memoryInChild(location, cycles: cycles)) { $1 } }
        return figures
    }

    /// The store at `location` (an SQLite file or a server URI); on a server the rows live in a schema of their own.
    static func open(_ location: String) throws -> PersistentContainer {
        let server = StoreDescription.isPostgreSQLURI(location)
        let schema = server ? Schema(name: "folio_bench", [SearchBenchRow.self]) : Schema([SearchBenchRow.self])
        return try PersistentContainer(schema: schema, store: PostgresBench.description(location))
    }

    /// The apps' list screen over every row, searching names, drawn once.
    static func screen(_ context: ObjectContext, into frame: inout Screen) throws -> SearchBenchController {
        var request = FetchRequest<SearchBenchRow>(sortBy: [SortDescriptor(\.group), SortDescriptor(\.name)])
        request.fetchBatchSize = 20
        let results = FetchedResultsController(
            fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: \SearchBenchRow.group)
        let controller = try SearchBenchController(title: "Rows", results: results)
        controller.searches([\SearchBenchRow.name])
        controller.viewWillAppear()
        controller.draw(into: &frame, in: bounds)
        return controller
    }

    static let bounds = Rect(x: 0, y: 0, width: 80, height: 24)

    /// Keystrokes on the live screen and the same filters re-fetched by the store on another.
    static func keystrokes(
        _ context: ObjectContext, rounds: Int, random: inout ResultsBench.Random, plain filter: PlainFilter
    ) throws -> [String: Double] {
        var frame = Screen(width: 80, height: 24)
        let live = try screen(context, into: &frame)
        let plain = try screen(context, into: &frame)
        // `/` readies the search (in the apps too), before the first keystroke.
        let prepare = ResultsBench.measureMS {
            _ = live.handle(.key(Key(.character("/"))))
            live.draw(into: &frame, in: bounds)
        }

        var keystroke: [Double] = []
        // The main thread's CPU time per keystroke: on a busy machine, the share of the wall time that is the work's.
        var keystrokeCPU: [Double] = []
        // Every thread's CPU time per keystroke: the scan's other threads too.
        var keystrokeProcessCPU: [Double] = []
        // The plain loop over the pre-folded names, per keystroke.
        var plainLoop: [Double] = []
        var loads: [Double] = []
        var refetch: [Double] = []
        var scan: [Double] = []
        var shown: [Int] = []
        for _ in 0..<rounds {
            let digits = (0..<4).map { _ in Character("\(random.below(10))") }
            let texts = (1...4).map { String(digits.prefix($0)) } + (0...3).reversed().map { String(digits.prefix($0)) }
            let keys = digits.map { Key(.character($0)) } + Array(repeating: Key(.backspace), count: 4)
            for (key, text) in zip(keys, texts) {
                loads.append(loadAverage())
                let cpu = threadCPUms(), processCPU = processCPUms()
                keystroke.append(
                    ResultsBench.measureMS {
                        _ = live.handle(.key(key))
                        live.draw(into: &frame, in: bounds)
                    })
                keystrokeCPU.append(threadCPUms() - cpu)
                keystrokeProcessCPU.append(processCPUms() - processCPU)
                var plainCount = 0
                plainLoop.append(ResultsBench.measureMS { plainCount = filter.count(text) })
                refetch.append(
                    try ResultsBench.measureMS {
                        plain.results.fetchRequest.stringFilters =
                            text.isEmpty
                            ? []
                            : [
                                StringFilter(\SearchBenchRow.name, .contains(text), options: [.caseInsensitive, .diacriticInsensitive])
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
                guard liveRows == plainRows, liveRows == plainCount else {
                    throw BenchMismatch(text: text, live: liveRows, plain: plainRows, loop: plainCount)
                }
                shown.append(liveRows)
            }
        }
        let p50 = ResultsBench.percentile(keystroke, 0.5), refetch50 = ResultsBench.percentile(refetch, 0.5)
        let p99 = ResultsBench.percentile(keystroke, 0.99)
        let plain50 = ResultsBench.percentile(plainLoop, 0.5), plain99 = ResultsBench.percentile(plainLoop, 0.99)
        return [
            "plain_loop_p50_ms": plain50, "plain_loop_p99_ms": plain99,
            "keystroke_over_plain_loop_p50": p50 / max(plain50, 0.001),
            "keystroke_over_plain_loop_p99": p99 / max(plain99, 0.001),
            "keystroke_process_cpu_p50_ms": ResultsBench.percentile(keystrokeProcessCPU, 0.5),
            "keystroke_process_cpu_p99_ms": ResultsBench.percentile(keystrokeProcessCPU, 0.99),
            "load_average_median": ResultsBench.percentile(loads, 0.5),
            "keystroke_p50_ms": p50, "keystroke_p99_ms": p99,
            // The names the bulk-speed table uses for the same figures.
            "filter_keystroke_p50_ms": p50, "filter_keystroke_p99_ms": p99,
            "refetch_p50_ms": refetch50, "refetch_p99_ms": ResultsBench.percentile(refetch, 0.99),
            "refetch_over_keystroke_p50": refetch50 / max(p50, 0.001),
            "scan_p50_ms": ResultsBench.percentile(scan, 0.5), "scan_p99_ms": ResultsBench.percentile(scan, 0.99),
            "rows_shown_median": Double(shown.sorted()[shown.count / 2]),
            "search_begin_ms": prepare,
            "keystroke_cpu_p50_ms": ResultsBench.percentile(keystrokeCPU, 0.5),
            "keystroke_cpu_p99_ms": ResultsBench.percentile(keystrokeCPU, 0.99),
        ]
    }

    /// The calling thread's CPU time, in ms.
    static func threadCPUms() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) * 1000 + Double(time.tv_nsec) / 1_000_000
    }

    struct BenchMismatch: Error, CustomStringConvertible {
        let text: String, live: Int, plain: Int, loop: Int
        var description: String {
            "search '\(text)': the live table has \(live) rows, the re-fetched one \(plain), the plain loop \(loop)"
        }
    }
}
