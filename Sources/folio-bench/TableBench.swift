import FolioTable
import Foundation

/// `folio-bench table --rows N [--json]`: a batch of 1,000 mixed changes
/// (deletes, inserts, moves, reloads) applied to an N-row table, and the
/// viewport laid out after it. The same run measures a 10,000-row table
/// (the ratio shows the cost does not grow with N) and a naive per-row
/// array model applying the same batch (the baseline).
@MainActor
func runTableBench(_ options: [String]) {
    let options = BenchOptions(options, suite: "table", defaultRows: 1_000_000, minimumRows: 1_000)
    let rows = options.rows, json = options.json
    let small = 10_000
    let large = TableBench.measure(rows: rows)
    let base = TableBench.measure(rows: small)
    let naive = TableBench.naiveMedian(rows: rows)
    let ratio = large.batchMs / max(base.batchMs, 0.000_001)
    print("table: 1,000 mixed changes, viewport 40 lines, 100 sections, median of \(TableBench.runs) runs")
    print(String(format: "  %9d rows: batch %8.3f ms   layout %8.1f us", rows, large.batchMs, large.layoutUs))
    print(String(format: "  %9d rows: batch %8.3f ms   layout %8.1f us", small, base.batchMs, base.layoutUs))
    print(String(format: "  batch ratio %d / %d rows: %.2fx (O(rows) would be %.0fx)", rows, small, ratio, Double(rows) / Double(small)))
    print(
        String(
            format: "  baseline, per-row arrays, %d rows: %8.3f ms (table is %.1fx faster)", rows, naive,
            naive / max(large.batchMs, 0.000_001)))
    if json {
        print(
            String(
                format:
                    "{\"rows\": %d, \"batch_ms\": %.4f, \"layout_us\": %.2f, \"small_rows\": %d, \"small_batch_ms\": %.4f, \"small_layout_us\": %.2f, \"batch_ratio\": %.3f, \"naive_batch_ms\": %.4f}",
                rows, large.batchMs, large.layoutUs, small, base.batchMs, base.layoutUs, ratio, naive))
    }
}

/// The benchmark's pieces.
@MainActor
enum TableBench {
    static let runs = 15
    static let sections = 100
    static let changes = (deletes: 400, inserts: 400, moves: 100, reloads: 100)

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("folio-bench table: \(message)\n".utf8))
        exit(2)
    }

    /// A data source that is only counts.
    final class Counts: TableViewDataSource {
        var counts: [Int]
        init(_ counts: [Int]) { self.counts = counts }
        func numberOfSections(in tableView: TableView) -> Int { counts.count }
        func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int { counts[section] }
        func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell {
            let cell = tableView.dequeueReusableCell(withIdentifier: "Cell", for: indexPath)
            cell.textLabel?.text = "\(indexPath.section).\(indexPath.row)"
            return cell
        }
    }

    /// A random valid batch and the counts after it.
    static func makeBatch(counts: [Int], seed: UInt64) -> (TableBatch, [Int]) {
        var random = ResultsBench.Random(seed: seed)
        func randomOldPath() -> IndexPath {
            let section = Int.random(in: 0..<counts.count, using: &random)
            return IndexPath(row: Int.random(in: 0..<counts[section], using: &random), section: section)
        }
        var old = Set<IndexPath>()
        while old.count < changes.deletes + changes.moves + changes.reloads { old.insert(randomOldPath()) }
        let sources = Array(old).shuffled(using: &random)
        var batch = TableBatch()
        batch.deletedRows = Array(sources[0..<changes.deletes])
        let moveSources = Array(sources[changes.deletes..<(changes.deletes + changes.moves)])
        batch.reloadedRows = Array(sources[(changes.deletes + changes.moves)...])
        var newCounts = counts
        for path in batch.deletedRows + moveSources { newCounts[path.section] -= 1 }
        let arrivals = (0..<(changes.inserts + changes.moves)).map { _ in Int.random(in: 0..<counts.count, using: &random) }
        for section in arrivals { newCounts[section] += 1 }
        var taken = Set<IndexPath>()
        var destinations: [IndexPath] = []
        for section in arrivals {
            var path: IndexPath
            repeat {
                path = IndexPath(row: Int.random(in: 0..<newCounts[section], using: &random), section: section)
            } while taken.contains(path)
            taken.insert(path)
            destinations.append(path)
        }
        batch.insertedRows = Array(destinations[0..<changes.inserts])
        batch.movedRows = zip(moveSources, destinations[changes.inserts...]).map { TableBatch.RowMove(from: $0, to: $1) }
        return (batch, newCounts)
    }

    /// Medians of the batch (ms) and of the layout after it (us).
    static func measure(rows: Int) -> (batchMs: Double, layoutUs: Double) {
        let counts = (0..<sections).map { rows / sections + ($0 < rows % sections ? 1 : 0) }
        let (batch, newCounts) = makeBatch(counts: counts, seed: 42)
        var batchTimes: [Double] = []
        var layoutTimes: [Double] = []
        for _ in 0..<runs {
            let source = Counts(counts)
            let table = TableView(viewportHeight: 40)
            table.register(TableViewCell.self, forCellReuseIdentifier: "Cell")
            table.dataSource = source
            table.reloadData()
            try? table.scrollToRow(at: IndexPath(row: counts[sections / 2] / 2, section: sections / 2), at: .top)
            table.layoutIfNeeded()
            source.counts = newCounts
            let start = DispatchTime.now().uptimeNanoseconds
            do { try table.apply(batch) } catch { fail("the benchmark's batch was refused: \(error)") }
            let middle = DispatchTime.now().uptimeNanoseconds
            table.layoutIfNeeded()
            let end = DispatchTime.now().uptimeNanoseconds
            batchTimes.append(Double(middle - start) / 1e6)
            layoutTimes.append(Double(end - middle) / 1e3)
        }
        return (median(batchTimes), median(layoutTimes))
    }

    /// The baseline: the same batch on per-row arrays of ids, UIKit's order
    /// (deletes descending, then inserts ascending).
    static func naiveMedian(rows: Int) -> Double {
        let counts = (0..<sections).map { rows / sections + ($0 < rows % sections ? 1 : 0) }
        let (batch, _) = makeBatch(counts: counts, seed: 42)
        var next = 0
        let model: [[Int]] = counts.map { count in
            defer { next += count }; return Array(next..<(next + count))
        }
        var times: [Double] = []
        for _ in 0..<runs {
            var sections = model
            let start = DispatchTime.now().uptimeNanoseconds
            let removals = (batch.deletedRows + batch.movedRows.map(\.from)).sorted(by: >)
            var moved: [IndexPath: Int] = [:]
            let moveSources = Dictionary(uniqueKeysWithValues: batch.movedRows.map { ($0.from, $0.to) })
            for path in removals {
                let id = sections[path.section].remove(at: path.row)
                if let to = moveSources[path] { moved[to] = id }
            }
            let arrivals = (batch.insertedRows + batch.movedRows.map(\.to)).sorted()
            for path in arrivals { sections[path.section].insert(moved[path] ?? -1, at: path.row) }
            let end = DispatchTime.now().uptimeNanoseconds
            precondition(sections.map(\.count).reduce(0, +) == rows, "baseline lost rows")
            times.append(Double(end - start) / 1e6)
        }
        return median(times)
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted[sorted.count / 2]
    }
}

// The results suite's SplitMix64, as a generator for `Int.random(in:using:)`.
extension ResultsBench.Random: RandomNumberGenerator {}
