import CSQLite
import FolioResults
import FolioStore
import Foundation

/// `folio-bench batch [--rows N] [--repeat R] [--json]`: batch requests
/// against raw SQLite doing the same writes in the same run, for N = 10,000,
/// 100,000 and 1,000,000 rows (or only `--rows N`): a batch insert of N rows
/// against a prepared INSERT stepped N times in one transaction; a batch
/// update of 10% (a predicate on the indexed score, scattered rows) against
/// the same `UPDATE ... WHERE` in one transaction, alone and with a live
/// controller on the context (the time until its report is delivered); a
/// batch delete of 10% against the same `DELETE ... WHERE`. Medians of R
/// runs (3 by default), each on fresh files.
@MainActor
func runBatchBench(_ options: [String]) {
    let parsed = BenchOptions(options, suite: "batch", defaultRows: 0, minimumRows: 10, valueOptions: ["--repeat"])
    guard let repeats = Int(parsed.values["--repeat"] ?? "3"), repeats > 0 else {
        benchUsageError("batch", "--repeat needs a positive number")
    }
    let sizes = parsed.rows > 0 ? [parsed.rows] : [10_000, 100_000, 1_000_000]
    do {
        var fields: [String] = []
        print("batch requests against raw SQLite, median of \(repeats) runs each on fresh files, load average \(BatchBench.loadAverage())")
        for rows in sizes {
            let figures = try BatchBench(rows: rows, repeats: repeats).run()
            for (name, ours, raw, target) in figures.rows {
                let label = "\(name) n=\(rows)".padding(toLength: 34, withPad: " ", startingAt: 0)
                print(
                    label + String(format: " folio %9.1f ms   raw SQLite %9.1f ms   ratio %5.2fx", ours, raw, ours / raw)
                        + (target.map { "  (target <= \($0)x)" } ?? ""))
            }
            print(
                String(
                    format: "  history row (the changed IDs as ranges): insert %d bytes, update %d bytes, delete %d bytes",
                    figures.historyBytes.insert,
                    figures.historyBytes.update, figures.historyBytes.delete))
            fields = figures.json(rows: rows, suffix: sizes.count > 1 && rows != sizes.last ? "_\(rows)" : "") + fields
        }
        if parsed.json { print("{" + (["\"rows\": \(sizes.last!)"] + fields).joined(separator: ", ") + "}") }
    } catch {
        FileHandle.standardError.write(Data("folio-bench batch: \(error)\n".utf8))
        exit(1)
    }
}

@MainActor
struct BatchBench {
    let rows: Int
    let repeats: Int

    struct Figures {
        var rows: [(String, Double, Double, String?)] = []
        var historyBytes = (insert: 0, update: 0, delete: 0)

        func json(rows: Int, suffix: String) -> [String] {
            let keys = ["batch_insert", "batch_update_10pct", "batch_update_10pct_controller", "batch_delete_10pct"]
            let raws = ["raw_batch_insert", "raw_batch_update_10pct", "raw_batch_update_10pct_controller", "raw_batch_delete_10pct"]
            var fields: [String] = []
            for (i, row) in self.rows.enumerated() {
                fields.append(String(format: "\"%@%@_ms\": %.2f", keys[i], suffix, row.1))
                if i != 2 { fields.append(String(format: "\"%@%@_ms\": %.2f", raws[i], suffix, row.2)) }
                fields.append(String(format: "\"%@%@_ratio\": %.3f", keys[i], suffix, row.1 / row.2))
            }
            return fields
        }
    }

    /// A permutation of 0..<rows, so that a range of scores is a scattered set of rows.
    func score(_ i: Int) -> Int { (i &* 7919) % rows }

    func run() throws -> Figures {
        var samples: [[Double]] = Array(repeating: [], count: 7)
        var figures = Figures()
        for _ in 0..<repeats {
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("folio-bench-batch-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: dir) }
            let container = try PersistentContainer(schema: Schema([BenchItem.self]), path: dir.appendingPathComponent("store.sqlite").path)
            let context = container.viewContext
            let raw = try RawSQLite(dir.appendingPathComponent("raw.sqlite").path)
            try raw.exec(
                "CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT, score INTEGER, value REAL); CREATE INDEX item_score ON item(score)")

            var next = 0
            var insert = BatchInsertRequest<BenchItem>(handler: { (values: inout BatchInsertValues<BenchItem>) in
                guard next < rows else { return true }
                values[\.name] = "item \(next)"
                values[\.score] = score(next)
                values[\.value] = Double(next) * 0.5
                next += 1
                return false
            })
            var inserted: [ObjectID] = []
            insert.resultType = .objectIDs
            samples[0].append(try storeMS { inserted = try context.execute(insert).objectIDs })
            precondition(inserted.count == rows)
            samples[1].append(try storeMS { try raw.insertItems(rows, score: score) })
            figures.historyBytes.insert = ChangeSet(inserted: Set(inserted)).historyText().utf8.count

            let tenth = rows / 10
            var update = BatchUpdateRequest<BenchItem>(predicate: #Predicate { $0.score < tenth }).setting(\.value, to: -1)
            update.resultType = .objectIDs
            var updated: [ObjectID] = []
            samples[2].append(try storeMS { updated = try context.execute(update).objectIDs })
            precondition(updated.count == tenth)
            samples[3].append(try storeMS { try raw.run("UPDATE item SET value = -1 WHERE score < \(tenth)") })
            figures.historyBytes.update =
                ChangeSet(updated: Dictionary(uniqueKeysWithValues: updated.map { ($0, ["value"]) })).historyText().utf8.count

            // The same update with a live controller on the context: until its report is delivered.
            var request = FetchRequest<BenchItem>(sortBy: [SortDescriptor(\.score)])
            request.fetchBatchSize = 20
            let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: nil)
            try controller.performFetch()
            var reports = 0
            controller.snapshotHandler = { _ in reports += 1 }
            samples[4].append(
                try storeMS {
                    let n = try context.execute(update.setting(\.value, to: -2)).count; precondition(n == tenth)
                })
            precondition(reports == 1, "the controller heard \(reports) reports")

            let top = rows - tenth
            var delete = BatchDeleteRequest<BenchItem>(predicate: #Predicate { $0.score >= top })
            delete.resultType = .objectIDs
            var deleted: [ObjectID] = []
            samples[5].append(try storeMS { deleted = try context.execute(delete).objectIDs })
            precondition(deleted.count == tenth)
            samples[6].append(try storeMS { try raw.run("DELETE FROM item WHERE score >= \(top)") })
            figures.historyBytes.delete = ChangeSet(deleted: Set(deleted)).historyText().utf8.count
        }
        let m = samples.map { $0.sorted()[$0.count / 2] }
        figures.rows = [
            ("batch insert", m[0], m[1], rows == 1_000_000 ? "1.5" : nil),
            ("batch update 10%", m[2], m[3], rows == 1_000_000 ? "2" : nil),
            ("batch update 10% + live controller", m[4], m[3], nil),
            ("batch delete 10%", m[5], m[6], nil),
        ]
        return figures
    }

    static func loadAverage() -> String {
        ((try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "?").split(separator: " ").prefix(3).joined(separator: " ")
    }
}

extension RawSQLite {
    /// One statement in its own transaction.
    func run(_ sql: String) throws {
        try exec("BEGIN IMMEDIATE")
        try exec(sql)
        try exec("COMMIT")
    }
}
