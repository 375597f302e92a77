import FolioAdapters
import FolioAppSupport
import FolioResults
import FolioStore
import FolioTable
import FolioTerminal
import Foundation

/// The apps' list screen over the results benchmark's rows.
@MainActor
final class RelaunchBenchScreen: ResultsTableController<ResultsBenchRow> {
    override func configure(_ cell: TableViewCell, with row: ResultsBenchRow) {
        cell.textLabel?.text = row.name
    }
}

/// `folio-bench relaunch --rows N [--json]`: a relaunch with a cache name at
/// N/100, N/10 and N rows, from opening the store to the apps' list screen
/// drawn (80×24, sectioned, fetchBatchSize 20), beside the same launch with
/// no cache in the same run; the target is a first screen in ≤ 100 ms
/// whatever N (the ratio N to N/100 printed). `folio-bench results` prints
/// the same figures. Then, at N rows, the rest of the order loading after
/// the first screen: how long until it is loaded, and the longest the main
/// actor was held meanwhile (what a user waits for between two keys).
@MainActor
func runRelaunchBench(_ arguments: [String]) async {
    let options = BenchOptions(arguments, suite: "relaunch", defaultRows: 1_000_000, minimumRows: 1_000)
    do {
        var random = ResultsBench.Random(seed: 0x2E1A_0001 ^ UInt64(options.rows))
        let store = try RelaunchBench.makeStore(rows: options.rows, random: &random)
        defer { try? FileManager.default.removeItem(at: store.deletingLastPathComponent()) }
        var figures = try RelaunchBench.series(rows: options.rows, store: store.path, print: !options.json)
        figures.merge(try await RelaunchBench.restLoad(store: store.path, rows: options.rows, print: !options.json)) { $1 }
        if options.json {
            print(
                "{" + figures.sorted { $0.key < $1.key }.map { "\"\($0.key)\": \(ResultsBench.number($0.value))" }.joined(separator: ", ")
                    + "}")
        }
    } catch {
        ResultsBench.fail("\(error)", suite: "relaunch")
    }
}

@MainActor
enum RelaunchBench {
    struct Figure {
        var rows: Int
        /// Open the store, performFetch from the cache, draw the first screen: median.
        var cachedMS: Double
        /// Of which opening the store.
        var openMS: Double
        /// The same launch with no cache (a fresh fetch), median.
        var freshMS: Double
    }

    /// Relaunches at `rows`/100, `rows`/10 (each in a store of its own) and at
    /// `rows` (in `store` when given, already filled with `rows` rows).
    static func series(rows n: Int, store: String? = nil, print shows: Bool) throws -> [String: Double] {
        var random = ResultsBench.Random(seed: 0x2E1A_0000 ^ UInt64(n))
        let sizes = [max(100, n / 100), max(100, n / 10), n]
        var figures: [Figure] = []
        for size in sizes {
            if size == n, let store {
                figures.append(try relaunch(store: store, rows: size))
            } else {
                figures.append(try withStore(rows: size, random: &random) { try relaunch(store: $0, rows: size) })
            }
        }
        let ratio = figures[2].cachedMS / figures[0].cachedMS
        if shows {
            for figure in figures {
                Swift.print(
                    "relaunch    rows \(figure.rows): with the cache to the first screen drawn \(ResultsBench.format(figure.cachedMS)) ms "
                        + "(opening the store \(ResultsBench.format(figure.openMS)) ms); with no cache \(ResultsBench.format(figure.freshMS)) ms, "
                        + "ratio \(ResultsBench.format(figure.freshMS / figure.cachedMS))x")
            }
            Swift.print(
                "relaunch    first screen at \(n) rows / at \(sizes[0]) rows: \(ResultsBench.format(ratio))x (target ≤ 100 ms, independent of n)"
            )
        }
        return [
            "relaunch_first_screen_ms": figures[2].cachedMS, "relaunch_open_ms": figures[2].openMS,
            "relaunch_no_cache_ms": figures[2].freshMS,
            "relaunch_first_screen_tenth_rows_ms": figures[1].cachedMS,
            "relaunch_first_screen_hundredth_rows_ms": figures[0].cachedMS,
            "relaunch_first_screen_ratio": ratio,
        ]
    }

    /// A store of its own with `rows` benchmark rows, removed afterwards.
    static func withStore<R>(rows: Int, random: inout ResultsBench.Random, _ body: (String) throws -> R) throws -> R {
        let store = try makeStore(rows: rows, random: &random)
        defer { try? FileManager.default.removeItem(at: store.deletingLastPathComponent()) }
        return try body(store.path)
    }

    /// A new store with `rows` benchmark rows, in a directory of its own (the caller removes it).
    static func makeStore(rows: Int, random: inout ResultsBench.Random) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("folio-bench-relaunch-\(getpid())-\(rows)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("relaunch.sqlite").path
        do {
            let container = try PersistentContainer(schema: Schema([ResultsBenchRow.self]), path: path)
            let context = container.viewContext
            context.undoManager = nil
            try ResultsBench.fill(context, rows: rows, random: &random) { random in
                let row = ResultsBenchRow(context: context)
                row.name = ResultsBench.name(&random)
                row.group = random.below(100)
            }
        }
        return URL(fileURLWithPath: path)
    }

    /// The results cache's folder for a bench on `store`, beside it (the caller removes it).
    static func useCaches(beside store: String) -> URL {
        let caches = URL(fileURLWithPath: store + "-caches")
        ResultsCache.directory = caches
        return caches
    }

    /// The relaunched list's request: sectioned by group, sorted by name, 20 rows a batch.
    static var request: FetchRequest<ResultsBenchRow> {
        var request = FetchRequest<ResultsBenchRow>(sortBy: [SortDescriptor(\.group), SortDescriptor(\.name)])
        request.fetchBatchSize = 20
        return request
    }

    /// Launches on `store` three times with a cache and three times without, each from opening the store to the first screen drawn.
    static func relaunch(store: String, rows: Int) throws -> Figure {
        let caches = useCaches(beside: store)
        defer { try? FileManager.default.removeItem(at: caches) }
        let request = Self.request
        var frame = Screen(width: 80, height: 24)
        let bounds = Rect(x: 0, y: 0, width: 80, height: 24)
        var drawn: [Screen] = []
        var counts = Set<Int>()
        /// One launch; returns the time to open the store, and whether the cache was used.
        func launch(cache: String?) throws -> (openMS: Double, usedCache: Bool) {
            let start = ResultsBench.now()
            let container = try PersistentContainer(schema: Schema([ResultsBenchRow.self]), path: store)
            let opened = ResultsBench.now()
            let results = FetchedResultsController(
                fetchRequest: request, managedObjectContext: container.viewContext,
                sectionNameKeyPath: \ResultsBenchRow.group, cacheName: cache)
            let screen = try RelaunchBenchScreen(title: "Rows", results: results)
            screen.viewWillAppear()
            screen.draw(into: &frame, in: bounds)
            drawn.append(frame)
            counts.insert(screen.tableView.numberOfRowsInAllSections)
            return (Double(opened - start) / 1_000_000, results.lastFetchUsedCache)
        }
        _ = try launch(cache: "relaunch")  // writes the cache
        var cached: [Double] = [], open: [Double] = [], fresh: [Double] = []
        for _ in 0..<3 {
            var used = false, openMS = 0.0
            cached.append(try ResultsBench.measureMS { (openMS, used) = try launch(cache: "relaunch") })
            guard used else { ResultsBench.fail("the relaunch at \(rows) rows did not use its cache", suite: "relaunch") }
            open.append(openMS)
            fresh.append(try ResultsBench.measureMS { _ = try launch(cache: nil) })
        }
        // Every launch, cached or not, must have drawn the same screen.
        guard Set(drawn).count == 1, counts == [rows] else {
            ResultsBench.fail("the launches at \(rows) rows drew different screens", suite: "relaunch")
        }
        return Figure(
            rows: rows, cachedMS: ResultsBench.percentile(cached, 0.5), openMS: ResultsBench.percentile(open, 0.5),
            freshMS: ResultsBench.percentile(fresh, 0.5))
    }
}
