import CSQLite
import FolioProcessSupport
import FolioStore
import Foundation

/// `folio-bench store --rows N [--assignments N] [--json]`: the store's work
/// against the same work written directly on SQLite's C API with prepared
/// statements, in one run; to-one assignments into a loaded to-many against
/// the same into an unloaded one; then how soon a save reaches observers,
/// from this process and from another.
@MainActor
func runStoreBench(_ options: [String]) async {
    let parsed = BenchOptions(
        options, suite: "store", defaultRows: 100_000,
        valueOptions: ["--repeat", "--batched-child", "--save-child", "--assignments"])
    let rows = parsed.rows, json = parsed.json
    guard let repeats = Int(parsed.values["--repeat"] ?? "3"), repeats > 0 else {
        benchUsageError("store", "--repeat needs a positive number")
    }
    guard let assignments = Int(parsed.values["--assignments"] ?? "\(StoreBench.defaultInverseAssignments)"), assignments > 0 else {
        benchUsageError("store", "--assignments needs a positive number")
    }
    do {
        if let path = parsed.values["--batched-child"] {
            let ms = try storeBatched(path)
            print("{\"fetch_batched_ms\": \(ms), \"peak_rss_mb\": \(storePeakRSSMB())}")
            return
        }
        if let path = parsed.values["--save-child"] {
            try LatencyChild.save(store: .file(path))
            return
        }
        try await StoreBench(rows: rows, repeats: repeats, assignments: assignments).run(json: json)
    } catch {
        storeBenchFail("\(error)")
    }
}

/// The entity the benchmark stores.
final class BenchItem: ManagedObject {
    @Managed var name: String
    @Managed var score: Int
    @Managed var value: Double

    override class var entity: EntityDescription {
        EntityDescription(
            BenchItem.self,
            properties: [
                .attribute(\BenchItem.name, "name"),
                .attribute(\BenchItem.score, "score", indexed: true),
                .attribute(\BenchItem.value, "value"),
            ])
    }

    /// Inserts `rows` items (the PostgreSQL benchmarks' shape: scores spread
    /// over 0..<rows), saves them in one save and turns them into faults.
    static func fill(_ context: ObjectContext, rows: Int) throws {
        context.undoManager = nil
        for i in 0..<rows {
            let item = BenchItem(context: context)
            item.name = "item \(i)"
            item.score = (i &* 7919) % rows
            item.value = Double(i) * 0.5
        }
        try context.save()
        context.refreshAllObjects()
    }
}

/// What a raw fetch builds per row, the counterpart of a materialised object.
struct RawItem {
    var id: Int64
    var name: String
    var score: Int
    var value: Double
}

@MainActor
struct StoreBench {
    let rows: Int
    let repeats: Int
    /// To-one assignments in the inverse row.
    let assignments: Int
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("folio-bench-\(UUID().uuidString)")

    func score(_ i: Int) -> Int { (i &* 7919) % rows }

    func run(json: Bool) async throws {
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let storePath = dir.appendingPathComponent("store.sqlite").path
        let rawPath = dir.appendingPathComponent("raw.sqlite").path
        var results: [(String, Double, Double)] = []

        let insert = try storeMS { try insertStore(storePath) }
        let rawInsert = try storeMS { try insertRaw(rawPath) }
        results.append(("insert", insert, rawInsert))

        let container = try PersistentContainer(schema: Schema([BenchItem.self]), path: storePath)
        let context = container.viewContext
        let sorted = FetchRequest<BenchItem>(sortBy: [SortDescriptor(\.score)])
        let raw = try RawSQLite(rawPath)

        results.append(
            (
                "fetch_ids",
                try median {
                    let n = try context.fetchIDs(sorted).count; precondition(n == rows)
                },
                try median {
                    let n = try raw.fetchIDs().count; precondition(n == rows)
                }
            ))
        results.append(
            (
                "fetch_objects",
                try median {
                    let n = try context.fetch(sorted).count; precondition(n == rows)
                },
                try median {
                    let n = try raw.fetchItems().count; precondition(n == rows)
                }
            ))
        // The raw side keeps SQLite's default 2 MiB page cache; this shows how much of the ratio the store's larger cache makes.
        let cached = try RawSQLite(rawPath)
        try cached.exec("PRAGMA cache_size = -\(sqlitePageCacheKiB)")
        let rawCachedFetch = try median {
            let n = try cached.fetchItems().count; precondition(n == rows)
        }
        let half = rows / 2
        let counted = FetchRequest<BenchItem>(predicate: #Predicate { $0.score < half })
        results.append(
            (
                "count",
                try median {
                    let n = try context.count(for: counted); precondition(n == half)
                },
                try median {
                    let n = try raw.count(below: half); precondition(n == half)
                }
            ))
        let child = try batchedInChild(storePath)
        results.append(("fetch_batched", child.ms, try median { try raw.batched() }))
        let updates = try updateAll(context, raw: raw)
        let latency = try await latency(container, path: storePath)
        let p = StoreLatency.percentile
        let delivery = [("same_process", latency.sameProcess), ("cross_process", latency.otherProcess)]
            .map { ($0.0, p($0.1, 0.5), p($0.1, 0.99)) }

        print("store benchmark, \(rows) rows (median of \(repeats) for fetches, count and update_all; insert once)")
        for (name, ours, base) in results {
            let label = name.padding(toLength: 14, withPad: " ", startingAt: 0)
            print(label + String(format: " folio %10.1f ms   raw SQLite %10.1f ms   ratio %5.2fx", ours, base, ours / base))
        }
        print(
            String(
                format: "  fetch_objects raw SQLite with the store's page cache (%d KiB) %10.1f ms   ratio %5.2fx",
                sqlitePageCacheKiB, rawCachedFetch, results[2].1 / rawCachedFetch))
        print(
            String(
                format:
                    "update_all     folio %10.1f ms   raw SQLite %10.1f ms   ratio %5.2fx (every row's indexed score in one save; target <= 1.5x)",
                updates.ours, updates.raw, updates.ours / updates.raw))
        print(String(format: "  peak RSS during batched iteration: %.1f MB", child.peakMB))
        let inverse = try inverseRow()
        print(
            String(
                format: "to-one x%d into a loaded to-many %10.1f ms   into an unloaded one %10.1f ms   ratio %5.2fx (target <= 1.5x)",
                assignments, inverse.loaded, inverse.unloaded, inverse.loaded / inverse.unloaded))
        print(
            String(
                format: "save heard   same process p50 %6.2f ms  p99 %6.2f ms   other process p50 %6.2f ms  p99 %6.2f ms  (%d saves each)",
                delivery[0].1, delivery[0].2, delivery[1].1, delivery[1].2, StoreLatency.saves))
        if json {
            var fields = ["\"rows\": \(rows)", String(format: "\"peak_rss_mb\": %.1f", child.peakMB)]
            fields += [
                String(format: "\"inverse_loaded_ms\": %.2f", inverse.loaded),
                String(format: "\"inverse_unloaded_ms\": %.2f", inverse.unloaded),
                String(format: "\"inverse_ratio\": %.3f", inverse.loaded / inverse.unloaded),
            ]
            for (name, ours, base) in results {
                fields.append(String(format: "\"%@_ms\": %.2f", name, ours))
                fields.append(String(format: "\"raw_%@_ms\": %.2f", name, base))
            }
            for (name, p50, p99) in delivery {
                fields.append(String(format: "\"%@_p50_ms\": %.3f", name, p50))
                fields.append(String(format: "\"%@_p99_ms\": %.3f", name, p99))
            }
            print("{" + fields.joined(separator: ", ") + "}")
        }
    }

    func median(_ body: () throws -> Void) throws -> Double {
        var times: [Double] = []
        for _ in 0..<repeats { times.append(try storeMS(body)) }
        return times.sorted()[times.count / 2]
    }

    func insertStore(_ path: String) throws {
        let container = try PersistentContainer(schema: Schema([BenchItem.self]), path: path)
        let context = container.viewContext
        context.undoManager = nil
        for i in 0..<rows {
            let item = BenchItem(context: context)
            item.name = "item \(i)"
            item.score = score(i)
            item.value = Double(i) * 0.5
        }
        try context.save()
    }

    func insertRaw(_ path: String) throws {
        let raw = try RawSQLite(path)
        try raw.exec(
            "CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT, score INTEGER, value REAL); CREATE INDEX item_score ON item(score)")
        try raw.insertItems(rows, score: score)
    }

    /// Runs the batched iteration in a fresh process so its peak memory is its own.
    func batchedInChild(_ path: String) throws -> (ms: Double, peakMB: Double) {
        let process = try ChildProcess(
            URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path, ["store", "--batched-child", path], output: .pipe,
            errors: .inherit)
        let data = process.output?.readDataToEndOfFile() ?? Data()
        process.wait()
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Double],
            let ms = object["fetch_batched_ms"], let mb = object["peak_rss_mb"]
        else {
            throw StoreError.sqlite(code: 0, message: "the batched child printed \(String(decoding: data, as: UTF8.self))", sql: "")
        }
        return (ms, mb)
    }
}

/// Fetches every item with batch size 20 and touches each one.
@MainActor
func storeBatched(_ path: String) throws -> Double {
    let container = try PersistentContainer(schema: Schema([BenchItem.self]), path: path)
    var request = FetchRequest<BenchItem>(sortBy: [SortDescriptor(\.score)])
    request.fetchBatchSize = 20
    var sum = 0.0
    let ms = try storeMS {
        for item in try container.viewContext.fetch(request) { sum += item.value }
    }
    precondition(sum >= 0)
    return ms
}

/// The raw baseline: SQLite's C API with prepared statements.
final class RawSQLite {
    let db: OpaquePointer

    init(_ path: String) throws {
        var handle: OpaquePointer?
        guard sqlite3_open(path, &handle) == SQLITE_OK, let handle else { throw StoreError.cannotOpen(path: path, message: "raw open") }
        db = handle
        try exec("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON")
    }

    deinit { sqlite3_close(db) }

    func error() -> StoreError { .sqlite(code: sqlite3_errcode(db), message: String(cString: sqlite3_errmsg(db)), sql: "") }

    func exec(_ sql: String) throws { guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else { throw error() } }

    func prepare(_ sql: String) throws -> OpaquePointer {
        var s: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &s, nil) == SQLITE_OK, let s else { throw error() }
        return s
    }

    /// Items 1...rows ("item i", `score(i)`, i / 2) with a prepared statement in one transaction.
    func insertItems(_ rows: Int, score: (Int) -> Int) throws {
        try exec("BEGIN IMMEDIATE")
        let s = try prepare("INSERT INTO item (id, name, score, value) VALUES (?, ?, ?, ?)")
        defer { sqlite3_finalize(s) }
        for i in 0..<rows {
            sqlite3_bind_int64(s, 1, Int64(i + 1))
            sqlite3_bind_text(s, 2, "item \(i)", -1, storeTransient)
            sqlite3_bind_int64(s, 3, Int64(score(i)))
            sqlite3_bind_double(s, 4, Double(i) * 0.5)
            guard sqlite3_step(s) == SQLITE_DONE else { throw error() }
            sqlite3_reset(s)
        }
        try exec("COMMIT")
    }

    func fetchIDs() throws -> [Int64] {
        let s = try prepare("SELECT id FROM item ORDER BY score, id")
        defer { sqlite3_finalize(s) }
        var ids: [Int64] = []
        while sqlite3_step(s) == SQLITE_ROW { ids.append(sqlite3_column_int64(s, 0)) }
        return ids
    }

    func item(_ s: OpaquePointer) -> RawItem {
        let text = UnsafeBufferPointer(start: sqlite3_column_text(s, 1), count: Int(sqlite3_column_bytes(s, 1)))
        return RawItem(
            id: sqlite3_column_int64(s, 0), name: String(decoding: text, as: UTF8.self),
            score: Int(sqlite3_column_int64(s, 2)), value: sqlite3_column_double(s, 3))
    }

    func fetchItems() throws -> [RawItem] {
        let s = try prepare("SELECT id, name, score, value FROM item ORDER BY score, id")
        defer { sqlite3_finalize(s) }
        var items: [RawItem] = []
        while sqlite3_step(s) == SQLITE_ROW { items.append(item(s)) }
        return items
    }

    func count(below limit: Int) throws -> Int {
        let s = try prepare("SELECT count(*) FROM item WHERE score < ?")
        defer { sqlite3_finalize(s) }
        sqlite3_bind_int64(s, 1, Int64(limit))
        guard sqlite3_step(s) == SQLITE_ROW else { throw error() }
        return Int(sqlite3_column_int64(s, 0))
    }

    /// IDs first, then rows 20 at a time by ID, touching each.
    func batched() throws {
        let ids = try fetchIDs()
        let marks = Array(repeating: "?", count: 20).joined(separator: ",")
        let s = try prepare("SELECT id, name, score, value FROM item WHERE id IN (\(marks))")
        defer { sqlite3_finalize(s) }
        var sum = 0.0
        var start = 0
        while start < ids.count {
            for k in 0..<20 { sqlite3_bind_int64(s, Int32(k + 1), start + k < ids.count ? ids[start + k] : -1) }
            var batch: [RawItem] = []
            while sqlite3_step(s) == SQLITE_ROW { batch.append(item(s)) }
            for i in batch { sum += i.value }
            sqlite3_reset(s)
            start += 20
        }
        precondition(sum >= 0)
    }
}

let storeTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

func storeMS(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
}

/// VmHWM (peak resident set) of this process, in MB.
func storePeakRSSMB() -> Double {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
        let kb = Double(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
        return kb / 1024
    }
    return 0
}

func storeBenchFail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("folio-bench store: \(message)\n".utf8))
    exit(1)
}
