import CSQLite
import FolioAppSupport
import Foundation
import PlanetsApp

/// `folio-bench import [--rows N] [--repeat R] [--json]`: `folio planets
/// import` of N rows (the command's own code: the file read, parsed,
/// checked and written by one batch insert into a new store), from CSV and
/// from JSON, against raw SQLite inserting the same rows, already in memory,
/// with one prepared INSERT stepped N times in one transaction into a table
/// with the same unique and plain indexes. Medians of R runs (3 by default),
/// each on fresh files; N is 1,000,000 unless given.
@MainActor
func runImportBench(_ options: [String]) {
    let parsed = BenchOptions(options, suite: "import", defaultRows: 1_000_000, minimumRows: 10, valueOptions: ["--repeat"])
    guard let repeats = Int(parsed.values["--repeat"] ?? "3"), repeats > 0 else {
        benchUsageError("import", "--repeat needs a positive number")
    }
    let rows = parsed.rows
    do {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("folio-bench-import-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let names = (0..<rows).map { "Planet \($0)" }
        var csv = "id,name,position\n", json = "[{\"name\":\"\",\"rows\":["
        for (i, name) in names.enumerated() {
            csv += "\(i + 1),\(name),\(i)\n"
            json += (i > 0 ? ",\n" : "\n") + "{\"id\":\"\(i + 1)\",\"name\":\"\(name)\",\"position\":\(i)}"
        }
        json += "\n]}]\n"
        let csvFile = dir.appendingPathComponent("planets.csv"), jsonFile = dir.appendingPathComponent("planets.json")
        try csv.write(to: csvFile, atomically: false, encoding: .utf8)
        try json.write(to: jsonFile, atomically: false, encoding: .utf8)
        csv = ""
        json = ""

        // Wall time, and the process's CPU time: on a loaded machine the second is the steadier figure.
        var samples: [[Double]] = [[], [], []], cpu: [[Double]] = [[], [], []]
        for run in 0..<repeats {
            for (index, file) in [csvFile, jsonFile].enumerated() {
                let store = dir.appendingPathComponent("store-\(run)-\(index).sqlite")
                let console = Console.capturing()
                let cpuStart = processCPUms()
                let ms = storeMS {
                    let outcome = FolioCommand(apps: [PlanetsApp.self], console: console, environment: [:])
                        .run(["planets", "import", file.path, "--store", store.path])
                    guard outcome == .exit(.success) else {
                        FileHandle.standardError.write(Data("folio-bench import: \(console.errorOutput)".utf8))
                        exit(1)
                    }
                }
                samples[index].append(ms)
                cpu[index].append(processCPUms() - cpuStart)
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: store.path + suffix) }
            }
            let raw = try RawSQLite(dir.appendingPathComponent("raw-\(run).sqlite").path)
            try raw.exec(
                "CREATE TABLE planet (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, position INTEGER NOT NULL); "
                    + "CREATE INDEX planet_position ON planet(position)")
            let cpuStart = processCPUms()
            samples[2].append(try storeMS { try raw.insertPlanets(names) })
            cpu[2].append(processCPUms() - cpuStart)
        }
        let m = samples.map { $0.sorted()[$0.count / 2] }, c = cpu.map { $0.sorted()[$0.count / 2] }
        print(
            "folio planets import of \(rows) rows against raw SQLite inserting them, median of \(repeats) runs, load average \(BatchBench.loadAverage())"
        )
        for (label, ours) in [("import from CSV", m[0]), ("import from JSON", m[1])] {
            print(
                label.padding(toLength: 18, withPad: " ", startingAt: 0)
                    + String(format: " folio %9.1f ms   raw SQLite %9.1f ms   ratio %5.2fx  (target <= 1.5x)", ours, m[2], ours / m[2]))
        }
        for (label, ours) in [("  CPU time, CSV", c[0]), ("  CPU time, JSON", c[1])] {
            print(
                label.padding(toLength: 18, withPad: " ", startingAt: 0)
                    + String(format: " folio %9.1f ms   raw SQLite %9.1f ms   ratio %5.2fx", ours, c[2], ours / c[2]))
        }
        if parsed.json {
            print(
                String(
                    format: "{\"rows\": %d, \"import_csv_ms\": %.2f, \"import_json_ms\": %.2f, \"raw_insert_ms\": %.2f, "
                        + "\"import_csv_ratio\": %.3f, \"import_json_ratio\": %.3f, \"import_csv_cpu_ratio\": %.3f, \"import_json_cpu_ratio\": %.3f}",
                    rows, m[0], m[1], m[2], m[0] / m[2], m[1] / m[2], c[0] / c[2], c[1] / c[2]))
        }
    } catch {
        FileHandle.standardError.write(Data("folio-bench import: \(error)\n".utf8))
        exit(1)
    }
}

extension RawSQLite {
    /// The planets `names[i]` at position i, with a prepared statement in one transaction.
    func insertPlanets(_ names: [String]) throws {
        try exec("BEGIN IMMEDIATE")
        let s = try prepare("INSERT INTO planet (id, name, position) VALUES (?, ?, ?)")
        defer { sqlite3_finalize(s) }
        for (i, name) in names.enumerated() {
            sqlite3_bind_int64(s, 1, Int64(i + 1))
            sqlite3_bind_text(s, 2, name, -1, storeTransient)
            sqlite3_bind_int64(s, 3, Int64(i))
            guard sqlite3_step(s) == SQLITE_DONE else { throw error() }
            sqlite3_reset(s)
        }
        try exec("COMMIT")
    }
}

/// The CPU time this process has used, every thread, in milliseconds.
func processCPUms() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
    return Double(time.tv_sec) * 1000 + Double(time.tv_nsec) / 1e6
}
