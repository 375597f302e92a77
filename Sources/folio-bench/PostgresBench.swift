import CLibPQ
import FolioPostgres
import FolioProcessSupport
import FolioResults
import FolioStore
import Foundation

/// `folio-bench postgres --rows N [--store URI] [--json]`: the store on a
/// PostgreSQL server against raw libpq doing the same work, in one run,
/// with the SQLite figures of the same measurements beside them. Without
/// `--store` it starts a throwaway server of its own (as the tests do) and
/// stops it at the end; with one, it works in a schema `folio_bench` (and
/// `folio_bench_raw` for the baseline), dropped before and after.
@MainActor
func runPostgresBench(_ options: [String]) async {
    let parsed = BenchOptions(
        options, suite: "postgres", defaultRows: 100_000, minimumRows: 1_000,
        valueOptions: ["--store", "--save-child"])
    do {
        if let child = parsed.values["--save-child"] {
            try LatencyChild.save(store: PostgresBench.description(child), schema: PostgresBench.schema(for: child))
            return
        }
        var cluster: PostgresCluster?
        let uri: String
        if let given = parsed.values["--store"] {
            uri = given
        } else {
            let started = try await PostgresCluster.started()
            cluster = started
            uri = try await started.makeDatabase(prefix: "bench")
        }
        defer { cluster?.destroy() }
        try await PostgresBench(rows: parsed.rows, uri: uri).run(json: parsed.json)
    } catch {
        FileHandle.standardError.write(Data("folio-bench postgres: \(error)\n".utf8))
        exit(1)
    }
}

/// The figures of one backend.
struct BackendFigures {
    var saveP50us = 0.0, saveP99us = 0.0
    /// Each timed save (µs), in order.
    var saves: [Double] = []
    var remoteP50ms = 0.0, remoteP99ms = 0.0
    var fetchMS = 0.0
    var fetchAllMS = 0.0
    var batchMS = 0.0
}

@MainActor
struct PostgresBench {
    let rows: Int
    let uri: String
    static let saves = 300
    static let repeats = 3

    /// The store a child is told about: a server URI or an SQLite file.
    static func description(_ location: String) -> StoreDescription {
        StoreDescription.isPostgreSQLURI(location) ? .postgreSQL(location) : .file(location)
    }

    /// On a server the benchmark's tables live in a schema of their own.
    static func schema(for location: String) -> Schema {
        StoreDescription.isPostgreSQLURI(location) ? Schema(name: "folio_bench", [BenchItem.self]) : Schema([BenchItem.self])
    }

    func run(json: Bool) async throws {
        let raw = try RawPostgres(uri)
        try raw.exec("DROP SCHEMA IF EXISTS folio_bench CASCADE; DROP SCHEMA IF EXISTS folio_bench_raw CASCADE")
        defer { try? raw.exec("DROP SCHEMA IF EXISTS folio_bench CASCADE; DROP SCHEMA IF EXISTS folio_bench_raw CASCADE") }
        // The raw saves alternate with the store's, so both meet the same load on a shared machine.
        // Its table is made once the store is open (the store refuses a database holding another program's tables).
        var rawSave: [Double] = []
        let server = try await measure(uri, opened: { try raw.fill(rows: rows) }) { i in
            rawSave.append(try raw.saveMicroseconds(i, rows: rows))
        }
        let rawFetch = try raw.fetchMS(repeats: Self.repeats)

        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("folio-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let sqlite = try await measure(dir.appendingPathComponent("store.sqlite").path) { _ in }

        let p50 = ResultsBench.percentile(rawSave, 0.5)
        print(
            "postgres benchmark, \(rows) rows (saves: \(Self.saves) single-object saves, each followed by a raw one; fetches: median of \(Self.repeats))"
        )
        // Each save is followed by a raw one: a pair meets the same load, so the
        // median of the pairs' ratios is steadier than the ratio of medians on a busy machine.
        let paired = ResultsBench.percentile(zip(server.saves, rawSave).map { $0 / $1 }, 0.5)
        print(
            String(
                format:
                    "save          p50 %8.1f us  p99 %8.1f us   raw libpq UPDATE in a transaction p50 %8.1f us   ratio %5.2fx, paired %5.2fx (target <= 1.5x)   SQLite p50 %8.1f us  p99 %8.1f us",
                server.saveP50us, server.saveP99us, p50, server.saveP50us / p50, paired, sqlite.saveP50us, sqlite.saveP99us))
        print(
            String(
                format:
                    "remote        p50 %8.2f ms  p99 %8.2f ms   (save in another process -> didChangeContent here; target p99 <= 50 ms)   SQLite p50 %8.2f ms  p99 %8.2f ms",
                server.remoteP50ms, server.remoteP99ms, sqlite.remoteP50ms, sqlite.remoteP99ms))
        print(
            String(
                format:
                    "performFetch  %10.1f ms   raw SELECT id, score ORDER BY score %10.1f ms   ratio %5.2fx (target <= 2x)   SQLite %10.1f ms   (fetchBatchSize 20)",
                server.fetchMS, rawFetch, server.fetchMS / rawFetch, sqlite.fetchMS))
        print(
            String(
                format:
                    "performFetch  %10.1f ms   with every object loaded (no batch size)                                 SQLite %10.1f ms",
                server.fetchAllMS, sqlite.fetchAllMS))
        print(
            String(
                format: "1%% batch      %10.1f ms   (one save changing %d rows, until the controller reported it)   SQLite %10.1f ms",
                server.batchMS, max(1, rows / 100), sqlite.batchMS))
        if json {
            let fields = [
                "\"rows\": \(rows)",
                String(format: "\"save_p50_us\": %.1f", server.saveP50us), String(format: "\"save_p99_us\": %.1f", server.saveP99us),
                String(format: "\"raw_save_p50_us\": %.1f", p50), String(format: "\"save_paired_ratio\": %.3f", paired),
                String(format: "\"remote_p50_ms\": %.3f", server.remoteP50ms),
                String(format: "\"remote_p99_ms\": %.3f", server.remoteP99ms),
                String(format: "\"fetch_ms\": %.2f", server.fetchMS), String(format: "\"raw_fetch_ms\": %.2f", rawFetch),
                String(format: "\"fetch_all_objects_ms\": %.2f", server.fetchAllMS),
                String(format: "\"batch_1pct_ms\": %.2f", server.batchMS),
            ]
            print("{" + fields.joined(separator: ", ") + "}")
        }
    }

    /// Every figure for the store at `location` (a server URI or a file path),
    /// filled with `rows` items; `opened` runs once the store is open, `between`
    /// after each timed save (the baseline's turn).
    func measure(_ location: String, opened: () throws -> Void = {}, between: (Int) throws -> Void) async throws -> BackendFigures {
        let schema = Self.schema(for: location)
        let container = try PersistentContainer(schema: schema, store: Self.description(location))
        try opened()
        let context = container.viewContext
        try BenchItem.fill(context, rows: rows)
        var figures = BackendFigures()

        // Single-object saves: one item's score each time.
        let items = Array(try context.fetch(FetchRequest<BenchItem>(sortBy: [SortDescriptor(\.score)])).prefix(Self.saves))
        var saves: [Double] = []
        for (i, item) in items.enumerated() {
            item.score = rows + i
            let start = StoreLatency.now()
            try context.save()
            saves.append((StoreLatency.now() - start) * 1000)
            try between(i)
        }
        figures.saves = saves
        figures.saveP50us = ResultsBench.percentile(saves, 0.5)
        figures.saveP99us = ResultsBench.percentile(saves, 0.99)
        context.refreshAllObjects()

        // performFetch over every row, sorted by score: as a long list fetches (a batch size,
        // so ids and keys only, as the raw scan reads), and with every object loaded.
        func fetchMS(batchSize: Int) throws -> Double {
            var fetches: [Double] = []
            for _ in 0..<Self.repeats {
                var request = FetchRequest<BenchItem>(sortBy: [SortDescriptor(\.score)])
                request.fetchBatchSize = batchSize
                let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: nil)
                let start = StoreLatency.now()
                try controller.performFetch()
                fetches.append(StoreLatency.now() - start)
                context.refreshAllObjects()
            }
            return ResultsBench.percentile(fetches, 0.5)
        }
        figures.fetchMS = try fetchMS(batchSize: 20)
        figures.fetchAllMS = try fetchMS(batchSize: 0)

        // Each measurement's controller ends with it: one left following every row
        // (its resident objects make each merge cost O(n) on the main actor) made
        // the cross-process figure the backlog of its work, about 10 s at 100,000 rows.
        figures.batchMS = try await batchMS(context)
        (figures.remoteP50ms, figures.remoteP99ms) = try await remoteMS(context, location)
        return figures
    }

    /// One save changing 1% of the rows, until a controller following every row reported it (ms).
    func batchMS(_ context: ObjectContext) async throws -> Double {
        let controller = FetchedResultsController(
            fetchRequest: FetchRequest<BenchItem>(sortBy: [SortDescriptor(\.score)]),
            managedObjectContext: context, sectionNameKeyPath: nil)
        let reports = ReportTimes()
        controller.delegate = reports
        try controller.performFetch()
        let changed = (controller.fetchedObjects ?? []).prefix(max(1, rows / 100))
        for item in changed { item.score += rows * 2 }
        let start = StoreLatency.now()
        try context.save()
        let deadline = StoreLatency.now() + 30_000
        while reports.reports == 0 && StoreLatency.now() < deadline { try await Task.sleep(for: .milliseconds(1)) }
        controller.delegate = nil
        return StoreLatency.now() - start
    }

    /// Saves in another process until a controller here reported each: p50 and p99 (ms).
    func remoteMS(_ context: ObjectContext, _ location: String) async throws -> (Double, Double) {
        let newRows = FetchedResultsController(
            fetchRequest: FetchRequest<BenchItem>(
                predicate: #Predicate { $0.score == -1 },
                sortBy: [SortDescriptor(\.name)]),
            managedObjectContext: context, sectionNameKeyPath: nil)
        let heard = ReportTimes()
        newRows.delegate = heard
        try newRows.performFetch()
        let child = try LatencyChild(arguments: ["postgres", "--save-child", location])
        let saved = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<[(Int64, Double)], any Error>) in
            DispatchQueue.global().async { continuation.resume(with: Result { try child.run() }) }
        }
        let until = StoreLatency.now() + 30_000
        while saved.contains(where: { heard.insertedAt[$0.0] == nil }) && StoreLatency.now() < until {
            try await Task.sleep(for: .milliseconds(1))
        }
        let latencies = saved.compactMap { s in heard.insertedAt[s.0].map { $0 - s.1 } }
        guard latencies.count == saved.count else {
            throw StoreError.offline(
                store: location, message: "\(saved.count - latencies.count) of \(saved.count) saves were not reported within 30 s")
        }
        return (ResultsBench.percentile(latencies, 0.5), ResultsBench.percentile(latencies, 0.99))
    }
}

/// When the controller reported, and when each inserted row was first reported.
@MainActor
final class ReportTimes: FetchedResultsControllerDelegate {
    var reports = 0
    var insertedAt: [Int64: Double] = [:]

    func controller(_ controller: AnyFetchedResultsController, didChangeContentWith changes: FetchedResultsChanges) {
        let at = StoreLatency.now()
        reports += 1
        for change in changes.objectChanges where change.type == .insert && insertedAt[change.id.rowID] == nil {
            insertedAt[change.id.rowID] = at
        }
    }
}
