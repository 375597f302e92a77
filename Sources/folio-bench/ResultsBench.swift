import Foundation
import FolioResults

/// `folio-bench results --rows N [--json]`: the results engine alone, then
/// the fetched results controller over a real store against the naive way
/// (re-fetch everything and diff with `CollectionDifference`).
func runResultsBench(_ options: [String]) {
    let settings = ResultsBenchSettings(options)
    var random = BenchRandom(seed: 0xF011_0000 ^ UInt64(settings.rows))
    let engine = runEngineBench(settings, &random)
    var json = ["rows": Double(settings.rows)]
    for (key, value) in engine { json["engine_\(key)"] = value }
    if settings.json {
        let body = json.keys.sorted().map { "\"\($0)\": \(formatNumber(json[$0]!))" }.joined(separator: ", ")
        print("{\(body)}")
    }
}

struct ResultsBenchSettings {
    var rows = 10_000
    var json = false
    var sections = 100

    init(_ options: [String]) {
        var iterator = options.makeIterator()
        while let option = iterator.next() {
            switch option {
            case "--rows":
                guard let text = iterator.next(), let rows = Int(text.replacingOccurrences(of: "_", with: "")), rows > 0 else {
                    benchFail("--rows needs a positive number")
                }
                self.rows = rows
            case "--json": json = true
            default: benchFail("unknown option '\(option)'")
            }
        }
    }
}

/// The engine alone: load, single changes, 1% and 10% batches, heap per row.
func runEngineBench(_ settings: ResultsBenchSettings, _ random: inout BenchRandom) -> [String: Double] {
    let n = settings.rows
    let heapBefore = residentBytes()
    let engine = ResultsEngine<Int64, Int64, Int64>()
    var keys = [Int64](repeating: 0, count: n)
    let loadMS = measureMS {
        engine.load((0..<n).map { i in
            keys[i] = Int64(random.next() % 1_000_000)
            return ResultsRow(id: Int64(i), key: keys[i], section: Int64(i % settings.sections))
        })
    }
    let bytesPerRow = Double(residentBytes() - heapBefore) / Double(n)
    var singles: [Double] = []
    for round in 0..<1000 {
        let id = Int(random.next() % UInt64(n))
        keys[id] = Int64(random.next() % 1_000_000)
        let section = round % 2 == 0 ? Int64(id % settings.sections) : Int64(random.next() % UInt64(settings.sections))
        let change = ResultsRowChange(id: Int64(id), row: ResultsRow(id: Int64(id), key: keys[id], section: section), objectChanged: true)
        singles.append(measureMS { _ = engine.apply([change]) } * 1000)
    }
    func batch(_ fraction: Double) -> Double {
        let changes = (0..<max(1, Int(Double(n) * fraction))).map { _ -> ResultsRowChange<Int64, Int64, Int64> in
            let id = Int64(random.next() % UInt64(n))
            return ResultsRowChange(id: id, row: ResultsRow(id: id, key: Int64(random.next() % 1_000_000), section: Int64(random.next() % UInt64(settings.sections))), objectChanged: true)
        }
        return measureMS { _ = engine.apply(changes) }
    }
    let batch1 = batch(0.01), batch10 = batch(0.10)
    let p50 = percentile(singles, 0.5), p99 = percentile(singles, 0.99)
    if !settings.json || true {
        print("engine  rows \(n): load \(fmt(loadMS)) ms, single change p50 \(fmt(p50)) us p99 \(fmt(p99)) us, 1% batch \(fmt(batch1)) ms, 10% batch \(fmt(batch10)) ms, heap \(fmt(bytesPerRow)) bytes/row")
    }
    withExtendedLifetime(engine) {}
    return ["load_ms": loadMS, "single_p50_us": p50, "single_p99_us": p99, "batch_1pct_ms": batch1, "batch_10pct_ms": batch10, "bytes_per_row": bytesPerRow]
}

/// SplitMix64, so runs are repeatable.
struct BenchRandom {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

func measureMS(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000
}

func percentile(_ values: [Double], _ p: Double) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return 0 }
    return sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
}

/// The resident set size, from /proc/self/statm.
func residentBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = text.split(separator: " ")
    return fields.count > 1 ? (Int(fields[1]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE))) : 0
}

func fmt(_ value: Double) -> String { String(format: value < 10 ? "%.3f" : "%.1f", value) }

func formatNumber(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(format: "%.4f", value)
}

func benchFail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("folio-bench results: \(message)\n".utf8))
    exit(2)
}
