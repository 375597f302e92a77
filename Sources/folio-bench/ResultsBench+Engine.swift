import FolioResults
import Foundation

extension ResultsBench {
    /// The engine alone: load, single changes, 1% and 10% batches, resident bytes per row.
    static func engine(_ settings: Settings, _ random: inout Random) -> [String: Double] {
        let n = settings.rows
        var keys = [Int64](repeating: 0, count: n)
        let before = residentBytes()
        let engine = ResultsEngine<Int64, Int64, Int64>()
        let loadMS = measureMS {
            engine.load(
                (0..<n).map { i in
                    keys[i] = Int64(random.below(1_000_000))
                    return ResultsRow(id: Int64(i), key: keys[i], section: Int64(i % settings.sections))
                })
        }
        let bytesPerRow = Double(residentBytes() - before) / Double(n)
        var singles: [Double] = []
        for round in 0..<1000 {
            let id = random.below(n)
            keys[id] = Int64(random.below(1_000_000))
            let section = round % 2 == 0 ? Int64(id % settings.sections) : Int64(random.below(settings.sections))
            let change = ResultsRowChange(
                id: Int64(id), row: ResultsRow(id: Int64(id), key: keys[id], section: section), objectChanged: true)
            singles.append(measureMS { _ = engine.apply([change]) } * 1000)
        }
        func batch(_ fraction: Double) -> Double {
            let changes = (0..<max(1, Int(Double(n) * fraction))).map { _ -> ResultsRowChange<Int64, Int64, Int64> in
                let id = Int64(random.below(n))
                return ResultsRowChange(
                    id: id, row: ResultsRow(id: id, key: Int64(random.below(1_000_000)), section: Int64(random.below(settings.sections))),
                    objectChanged: true)
            }
            return measureMS { _ = engine.apply(changes) }
        }
        let batch1 = batch(0.01), batch10 = batch(0.10)
        let p50 = percentile(singles, 0.5), p99 = percentile(singles, 0.99)
        print(
            "engine      rows \(n): load \(format(loadMS)) ms; one change p50 \(format(p50)) us, p99 \(format(p99)) us; "
                + "1% batch \(format(batch1)) ms, 10% batch \(format(batch10)) ms; \(format(bytesPerRow)) resident bytes/row")
        fflush(nil)
        withExtendedLifetime(engine) {}
        return [
            "load_ms": loadMS, "single_p50_us": p50, "single_p99_us": p99, "batch_1pct_ms": batch1, "batch_10pct_ms": batch10,
            "bytes_per_row": bytesPerRow,
        ]
    }
}
