import FolioResults
import Foundation

/// `folio-bench results --rows N [--json]`: the results engine alone, then
/// the fetched results controller over a real store, against the naive way
/// (re-fetch everything after each save and diff with `CollectionDifference`
/// and `inferringMoves()`) in the same run.
@MainActor
func runResultsBench(_ options: [String]) {
    let settings = ResultsBench.Settings(options)
    var random = ResultsBench.Random(seed: 0xF011_0000 ^ UInt64(settings.rows))
    if settings.bulkOnly {
        do { try ResultsBench.bulkOnly(settings, &random) } catch { ResultsBench.fail("\(error)") }
        return
    }
    var json = ["rows": Double(settings.rows)]
    for (key, value) in ResultsBench.engine(settings, &random) { json["engine_\(key)"] = value }
    do {
        let figures = try ResultsBench.controller(settings, &random)
        json.merge(figures) { $1 }
        // A search keystroke at the same size (`folio-bench search` has its detail and baseline).
        let search = try SearchBench.run(rows: settings.rows, rounds: 3)
        for key in ["filter_keystroke_p50_ms", "filter_keystroke_p99_ms"] { json[key] = search[key] }
        if !settings.json {
            print(
                String(
                    format:
                        "search keystroke → table updated: p50 %.1f ms, p99 %.1f ms (plain re-fetch p50 %.1f ms, the filter's scan p50 %.1f ms)",
                    search["filter_keystroke_p50_ms"] ?? 0, search["filter_keystroke_p99_ms"] ?? 0,
                    search["refetch_p50_ms"] ?? 0, search["scan_p50_ms"] ?? 0))
        }
    } catch {
        ResultsBench.fail("\(error)")
    }
    if settings.json {
        let keys = [
            "rows", "fetch_ms", "single_p50_us", "single_p99_us", "batch_1pct_ms", "batch_10pct_ms", "bytes_per_row", "naive_single_ms",
        ]
        let extra = json.keys.filter { !keys.contains($0) }.sorted()
        let body = (keys + extra).compactMap { key in json[key].map { "\"\(key)\": \(ResultsBench.number($0))" } }
        print("{" + body.joined(separator: ", ") + "}")
    }
}

/// The results suite's settings and helpers.
enum ResultsBench {
    struct Settings {
        var rows = 10_000
        var json = false
        var sections = 100
        /// `--only bulk`: only the big saves' controller share, `--repeat` times each
        /// (`bulk1`, `bulk10`: only the 1% or the 10% save).
        var bulkOnly = false
        var bulkFractions = [0.01, 0.10]
        var repeats = 1

        init(_ options: [String]) {
            let parsed = BenchOptions(options, suite: "results", defaultRows: rows, valueOptions: ["--only", "--repeat"])
            rows = parsed.rows
            json = parsed.json
            if let only = parsed.values["--only"] {
                let fractions = ["bulk": [0.01, 0.10], "bulk1": [0.01], "bulk10": [0.10]]
                guard let chosen = fractions[only] else { benchUsageError("results", "--only takes bulk, bulk1 or bulk10") }
                bulkOnly = true
                bulkFractions = chosen
            }
            if let text = parsed.values["--repeat"] {
                guard let value = Int(text), value >= 1 else { benchUsageError("results", "--repeat needs a whole number of at least 1") }
                repeats = value
            }
        }
    }

    /// SplitMix64, so runs are repeatable (the table suite uses it too).
    struct Random {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    }

    static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    /// The calling thread's CPU time in nanoseconds: on a loaded machine the
    /// wall clock also counts the time other processes held the cores.
    static func cpuNow() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    static func measureMS(_ body: () throws -> Void) rethrows -> Double {
        let start = now()
        try body()
        return Double(now() - start) / 1_000_000
    }

    static func percentile(_ values: [Double], _ p: Double) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        return sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
    }

    /// The resident set size, after handing freed heap back to the system.
    static func residentBytes() -> Int {
        if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") {
            _ = unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)(0)
        }
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        return fields.count > 1 ? (Int(fields[1]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE))) : 0
    }

    static func format(_ value: Double) -> String { String(format: value < 10 ? "%.3f" : "%.1f", value) }

    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(format: "%.4f", value)
    }

    /// Ends the run with `message` on standard error, named by its suite.
    static func fail(_ message: String, suite: String = "results") -> Never {
        FileHandle.standardError.write(Data("folio-bench \(suite): \(message)\n".utf8))
        exit(2)
    }
}
