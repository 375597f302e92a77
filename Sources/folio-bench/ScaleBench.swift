import FolioLocking
import FolioProcessSupport
import FolioResults
import FolioStore
import Foundation
import Synchronization

/// `folio-bench postgres-scale --writers W --clients C --processes P --seconds S [--rate R] [--json]`:
/// many writers and many live clients on one throwaway server. W writer
/// containers in this process save single-object changes (each save
/// inserts one object, so that each delivery names its save) for S seconds;
/// C clients (containers with a sectioned controller) in P processes of
/// their own note when each save reaches their `didChangeContent`. The
/// baseline, in the same run with the clients connected: W threads saving
/// the same changes through raw libpq with no change feed at all. With
/// `--rate R` the writers together save at most R times a second (evenly
/// spaced per writer), so visibility can be compared at the same load.
@MainActor
func runScaleBench(_ options: [String]) async {
    let parsed = BenchOptions(
        options, suite: "postgres-scale", defaultRows: 1,
        valueOptions: ["--writers", "--clients", "--processes", "--seconds", "--rate", "--client-child"])
    func number(_ name: String, _ fallback: Double) -> Double {
        guard let text = parsed.values[name] else { return fallback }
        guard let value = Double(text), value > 0 else { benchUsageError("postgres-scale", "\(name) needs a positive number") }
        return value
    }
    do {
        if let uri = parsed.values["--client-child"] {
            try await ScaleBench.runClients(uri: uri, count: Int(number("--clients", 1)))
            return
        }
        let bench = ScaleBench(
            writers: Int(number("--writers", 16)), clients: Int(number("--clients", 100)),
            processes: Int(number("--processes", 10)), seconds: number("--seconds", 5),
            rate: parsed.values["--rate"] == nil ? nil : number("--rate", 1))
        let cluster = try await PostgresCluster.started()
        defer { cluster.destroy() }
        try await bench.run(
            uri: try await cluster.makeDatabase(prefix: "scale"), serverData: cluster.directory + "/data", json: parsed.json)
    } catch {
        FileHandle.standardError.write(Data("folio-bench postgres-scale: \(error)\n".utf8))
        exit(1)
    }
}

@MainActor
struct ScaleBench {
    let writers: Int
    let clients: Int
    let processes: Int
    let seconds: Double
    /// Saves a second of all writers together; nil: as many as they can.
    var rate: Double? = nil
    nonisolated static let schema = Schema(name: "folio_scale", [BenchItem.self])

    static func writerName(_ w: Int) -> String { String(format: "writer %02d", w) }

    func run(uri: String, serverData: String, json: Bool) async throws {
        // The store, made before the clients open it.
        _ = try PersistentContainer(schema: Self.schema, store: .postgreSQL(uri))
        try ScaleRaw.create(uri)
        // A reader that never reads keeps every history row, so the commit order can be read at the end.
        try RawPostgres(uri).exec("INSERT INTO folio_scale.folio_readers VALUES ('commit order', 0, 1e12)")

        let perProcess = (0..<processes).map { clients / processes + ($0 < clients % processes ? 1 : 0) }.filter { $0 > 0 }
        let children = try perProcess.map { try ScaleChild(uri: uri, clients: $0) }
        for child in children { try await child.waitForReady() }
        let idle = try RawPostgres(uri).count("SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend'") - 1

        let rawStart = CPUSplit(serverData: serverData, clients: [])
        let rawSaves = try await Self.off { [writers, seconds] in
            try ScaleRaw.run(uri, writers: writers, seconds: seconds)
        }
        let rawCPU = CPUSplit(serverData: serverData, clients: []) - rawStart
        let rawNotifyingSaves = try await Self.off { [writers, seconds] in
            try ScaleRaw.run(uri, writers: writers, seconds: seconds, notifying: true)
        }
        let countersBefore = try ServerCounters.read(uri)
        let watch = try ConnectionWatch(uri)
        var (saves, failures, cpu) = try await folioSaves(uri, serverData: serverData, clients: children.map(\.pid))
        let peak = watch.stop()
        // Saves commit side by side: their order is their history rows', not their row IDs'.
        let order = try Self.commitOrder(uri)
        for i in saves.indices { saves[i].rank = order[saves[i].row] ?? -1 }

        var tally = ScaleTally()
        for child in children { try await child.tally(saves, into: &tally) }
        // The clients' sessions have ended (each reported its counts); the writers' are idle a moment (they report then).
        try await Task.sleep(for: .milliseconds(1500))
        let counters = try ServerCounters.read(uri) - countersBefore
        report(
            saves: saves.count, failures: failures, rawSaves: rawSaves, rawNotifyingSaves: rawNotifyingSaves, tally: tally, idle: idle,
            peak: peak, counters: counters.perSave(saves.count), cpu: (cpu, rawCPU), json: json)
    }

    /// The writers' saves, in the order they returned, how many saves
    /// failed, and the CPU used while they saved.
    private func folioSaves(_ uri: String, serverData: String, clients: [pid_t]) async throws -> ([ScaleSave], Int, CPUSplit) {
        var contexts: [(BackgroundContext, String)] = []
        var containers: [PersistentContainer] = []
        for w in 0..<writers {
            let container = try PersistentContainer(schema: Self.schema, store: .postgreSQL(uri))
            containers.append(container)
            contexts.append((container.newBackgroundContext(), Self.writerName(w)))
        }
        let cpuStart = CPUSplit(serverData: serverData, clients: clients)
        let start = StoreLatency.now(), end = start + seconds * 1000
        // Each writer's n-th save starts no sooner than n spacings after the start (ms).
        let spacing = rate.map { Double(writers) * 1000 / $0 }
        let results = LockedValue<[[ScaleSave]]>([]), failed = Atomic<Int>(0)
        let group = DispatchGroup()
        for (background, name) in contexts {
            group.enter()
            let handle = UncheckedBox(background)
            Thread {
                let saves = handle.value.performAndWait { context -> [ScaleSave] in
                    var saves: [ScaleSave] = []
                    context.undoManager = nil
                    var n = 0
                    while StoreLatency.now() < end {
                        if let spacing {
                            let due = start + Double(n) * spacing
                            let now = StoreLatency.now()
                            if due > now { usleep(UInt32((due - now) * 1000)) }
                        }
                        n += 1
                        let item = BenchItem(context: context)
                        item.name = name
                        item.score = n
                        item.value = 0
                        do {
                            try context.save()
                            saves.append(ScaleSave(row: item.objectID.rowID, score: n, at: StoreLatency.now()))
                        } catch {
                            failed.add(1, ordering: .relaxed)
                            context.rollback()
                        }
                        if n % 100 == 0 { context.refreshAllObjects() }
                    }
                    return saves
                }
                results.withLock { $0.append(saves) }
                group.leave()
            }.start()
        }
        await Self.off { group.wait() }
        // Before the containers go: their server sessions end with them.
        let cpu = CPUSplit(serverData: serverData, clients: clients) - cpuStart
        withExtendedLifetime(containers) {}
        return (results.withLock { $0.flatMap { $0 } }, failed.load(ordering: .relaxed), cpu)
    }

    private func report(
        saves: Int, failures: Int, rawSaves: Int, rawNotifyingSaves: Int, tally: ScaleTally, idle: Int, peak: Int,
        counters: (text: String, json: [String]), cpu: (folio: CPUSplit, raw: CPUSplit), json: Bool
    ) {
        let perSecond = Double(saves) / seconds, rawPerSecond = Double(rawSaves) / seconds
        let ratio = rawPerSecond > 0 ? perSecond / rawPerSecond : 0
        var sorted: [(Int, Int)] = tally.latencies.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        if sorted.isEmpty { sorted = [(0, 0)] }
        let heard = sorted.reduce(0) { $0 + $1.1 }
        func percentile(_ p: Double) -> Double {
            var seen = 0
            for (tenths, n) in sorted {
                seen += n
                if Double(seen) > Double(heard) * p { return Double(tenths) / 10 }
            }
            return Double(sorted.last!.0) / 10
        }
        print(
            "postgres-scale: \(writers) writers, \(clients) clients in \(processes) processes, \(Int(seconds)) s (single-object saves"
                + (rate.map { ", at most \(Int($0)) a second)" } ?? ")"))
        print(
            String(
                format: "saves         %8.0f /s   raw libpq, no feed %8.0f /s   ratio %5.2f (target >= 0.7)   failed saves %d",
                perSecond, rawPerSecond, ratio, failures))
        print(
            String(
                format: "              raw libpq with a NOTIFY in each transaction %8.0f /s (what announcing every save costs by itself)",
                Double(rawNotifyingSaves) / seconds))
        print(
            String(
                format: "visible       p50 %8.2f ms  p99 %8.2f ms (save -> every client's didChangeContent; target p99 <= 100 ms)",
                percentile(0.5), percentile(0.99)))
        print(
            "deliveries    \(heard) heard, \(tally.missed) missed, \(tally.duplicated) duplicated (target 0 and 0), \(tally.outOfOrder) out of order"
        )
        print("connections   \(idle) with the clients open, peak \(peak) while saving (client backends in pg_stat_activity)")
        print(counters.text)
        let perSave = cpu.folio.microseconds(per: saves), rawPerSave = cpu.raw.microseconds(per: rawSaves)
        print(
            String(
                format:
                    "cpu           per save: server %.0f µs (raw libpq %.0f), the writers' process %.0f µs (raw %.0f), the clients' processes %.0f µs",
                perSave.server, rawPerSave.server, perSave.writers, rawPerSave.writers, perSave.clients))
        if json {
            let fields =
                [
                    "\"writers\": \(writers)", "\"clients\": \(clients)", "\"processes\": \(processes)",
                    String(format: "\"saves_per_s\": %.1f", perSecond), String(format: "\"raw_saves_per_s\": %.1f", rawPerSecond),
                    String(format: "\"ratio\": %.3f", ratio),
                    String(format: "\"raw_notify_saves_per_s\": %.1f", Double(rawNotifyingSaves) / seconds),
                    String(format: "\"visible_p50_ms\": %.2f", percentile(0.5)),
                    String(format: "\"visible_p99_ms\": %.2f", percentile(0.99)),
                    "\"missed\": \(tally.missed)", "\"duplicated\": \(tally.duplicated)", "\"out_of_order\": \(tally.outOfOrder)",
                    "\"connections\": \(peak)",
                    "\"idle_connections\": \(idle)", "\"failed_saves\": \(failures)",
                    String(format: "\"server_cpu_us_per_save\": %.1f", perSave.server),
                    String(format: "\"raw_server_cpu_us_per_save\": %.1f", rawPerSave.server),
                    String(format: "\"writers_cpu_us_per_save\": %.1f", perSave.writers),
                    String(format: "\"raw_writers_cpu_us_per_save\": %.1f", rawPerSave.writers),
                    String(format: "\"clients_cpu_us_per_save\": %.1f", perSave.clients),
                ] + counters.json
            print("{" + fields.joined(separator: ", ") + "}")
        }
    }

    /// Each inserted row's place in the order readers hear saves: its history row's (position, then seq).
    static func commitOrder(_ uri: String) throws -> [Int64: Int] {
        var order: [Int64: Int] = [:]
        for (rank, text) in try RawPostgres(uri).texts("SELECT changes FROM folio_scale.folio_history ORDER BY position, seq").enumerated()
        {
            for id in ChangeSet(historyText: text, origin: .otherProcess).inserted { order[id.rowID] = rank }
        }
        return order
    }

    /// Runs blocking `work` on a thread of its own, leaving the main actor free.
    static func off<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try work() }) }.start()
        }
    }

    static func off<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: work()) }.start()
        }
    }
}

/// A process of clients: this benchmark again in `--client-child` mode.
final class ScaleChild: @unchecked Sendable {  // used from one task at a time, each read on a thread of its own
    private let process: ChildProcess
    private var buffer = ""
    var pid: pid_t { process.pid }

    init(uri: String, clients: Int) throws {
        process = try ChildProcess(
            URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path,
            ["postgres-scale", "--client-child", uri, "--clients", String(clients)], input: .pipe, output: .pipe, errors: .inherit)
    }

    private func line() -> String? {
        while !buffer.contains("\n") {
            let data = process.output?.availableData ?? Data()
            if data.isEmpty { return nil }
            buffer += String(decoding: data, as: UTF8.self)
        }
        let end = buffer.firstIndex(of: "\n")!
        defer { buffer = String(buffer[buffer.index(after: end)...]) }
        return String(buffer[..<end])
    }

    func waitForReady() async throws {
        let ready = await ScaleBench.off { [self] in line() == "ready" }
        guard ready else { throw StoreError.offline(store: "clients", message: "a client process did not start (see its errors above)") }
    }

    /// Hands the child the saves made and adds its tally to `tally`.
    func tally(_ saves: [ScaleSave], into tally: inout ScaleTally) async throws {
        var text = ""
        for save in saves { text += "\(save.row) \(save.score) " + String(format: "%.4f", save.at) + " \(save.rank)\n" }
        try process.input?.write(contentsOf: Data((text + "end\n").utf8))
        let lines = await ScaleBench.off { [self] in
            var lines: [String] = []
            while let next = line(), next != "done" { lines.append(next) }
            return lines
        }
        for next in lines {
            let f = next.split(separator: " ")
            if f.count == 3, f[0] == "lat", let tenths = Int(f[1]), let n = Int(f[2]) { tally.latencies[tenths, default: 0] += n }
            if f.count == 2, f[0] == "missed", let n = Int(f[1]) { tally.missed += n }
            if f.count == 2, f[0] == "duplicated", let n = Int(f[1]) { tally.duplicated += n }
            if f.count == 2, f[0] == "out-of-order", let n = Int(f[1]) { tally.outOfOrder += n }
        }
        process.wait()
    }
}
