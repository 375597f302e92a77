import FolioPostgres
import FolioProcessSupport
import FolioResults
import FolioStore
import Foundation

/// `folio-bench replica --rows N [--json]`: a replica of a store of N rows
/// on a throwaway server of its own, against its baselines in the same run:
/// a save on a plain SQLite store, raw libpq running the pushed writes, and
/// raw libpq `COPY` into a prepared SQLite insert for the first sync.
@MainActor
func runReplicaBench(_ options: [String]) async {
    let parsed = BenchOptions(options, suite: "replica", defaultRows: 100_000, minimumRows: 1_000)
    do {
        let cluster = try await PostgresCluster.started()
        defer { cluster.destroy() }
        let uri = try await cluster.makeDatabase(prefix: "bench")
        try await ReplicaBench(rows: parsed.rows, uri: uri).run(json: parsed.json)
    } catch {
        FileHandle.standardError.write(Data("folio-bench replica: \(error)\n".utf8))
        exit(1)
    }
}

@MainActor
struct ReplicaBench {
    let rows: Int
    let uri: String
    /// Enough that the p99 is the twentieth slowest save, not one of a few.
    static let timedSaves = 2_000
    static let waiting = 10_000
    static let remoteSaves = 200
    /// How many waiting saves the replica pushes in one server transaction.
    static let pushBatch = 200
    let schema = Schema([BenchItem.self])

    func run(json: Bool) async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("folio-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try fillServer()

        // First sync: the replica's open, against COPY into a prepared SQLite insert.
        let replicaStore = StoreDescription.postgreSQL(uri, replica: dir.appendingPathComponent("a.sqlite").path)
        var start = StoreLatency.now()
        var firstSync = 0.0
        do {
            let synced = try PersistentContainer(schema: schema, store: replicaStore, syncsAutomatically: false)
            firstSync = StoreLatency.now() - start
            _ = synced
        }
        let raw = try RawPostgres(uri)
        let rawFirstSync = try raw.copyIntoSQLite(dir.appendingPathComponent("raw.sqlite").path)

        // Saves: one item's score each, on the replica (sync off, so they wait) and on a plain SQLite store, alternating.
        // Both stores saved on as a later launch finds them: full, opened afresh. The plain store's filling
        // container would otherwise save on the connection that wrote every row (its page cache holding
        // a quarter of a million-row file) with the log of the fill still being copied back, against a
        // replica opened after its first sync.
        do {
            let filler = try PersistentContainer(schema: schema, store: .file(dir.appendingPathComponent("plain.sqlite").path))
            try fill(filler.viewContext)
        }
        let a = try PersistentContainer(schema: schema, store: replicaStore, syncsAutomatically: false)
        let sqlite = try PersistentContainer(schema: schema, store: .file(dir.appendingPathComponent("plain.sqlite").path))
        let items = try firstItems(a.viewContext, Self.waiting)
        let plainItems = try firstItems(sqlite.viewContext, Self.timedSaves)
        // Also the saving thread's CPU time: on a loaded machine the wall clock counts the disk's and the others' waits.
        var local: [Double] = [], plain: [Double] = [], localCPU: [Double] = [], plainCPU: [Double] = []
        for (i, item) in items.enumerated() {
            item.score = rows + i
            start = StoreLatency.now()
            var cpu = ResultsBench.cpuNow()
            try a.viewContext.save()
            if i < Self.timedSaves {
                localCPU.append(Double(ResultsBench.cpuNow() - cpu) / 1000)
                local.append((StoreLatency.now() - start) * 1000)
                plainItems[i].score = rows + i
                start = StoreLatency.now()
                cpu = ResultsBench.cpuNow()
                try sqlite.viewContext.save()
                plainCPU.append(Double(ResultsBench.cpuNow() - cpu) / 1000)
                plain.append((StoreLatency.now() - start) * 1000)
            }
        }

        // Push: the 10,000 waiting saves, against raw libpq making the same row writes in transactions of the push's size.
        start = StoreLatency.now()
        let report = try await a.syncNow()
        let push = StoreLatency.now() - start
        guard report.pushed == Self.waiting else {
            throw StoreError.server(
                store: uri, code: "", message: "pushed \(report.pushed) of \(Self.waiting): \(report.problem ?? "")", sql: "")
        }
        try raw.fill(rows: rows)
        let rawPush = try raw.updatesMS(Self.waiting, rows: rows, perTransaction: ReplicaBench.pushBatch)
        let rawPushEach = try raw.updatesMS(Self.waiting, rows: rows, perTransaction: 1)

        let (remoteP50, remoteP99) = try await remote(a, dir)
        let p = { (v: [Double], q: Double) in ResultsBench.percentile(v, q) }
        print("replica benchmark, \(rows) rows")
        print(
            String(
                format:
                    "save         p50 %8.1f us  p99 %8.1f us   plain SQLite store p50 %8.1f us  p99 %8.1f us   ratio %5.2fx (target <= 1.2x)",
                p(local, 0.5), p(local, 0.99), p(plain, 0.5), p(plain, 0.99), p(local, 0.5) / p(plain, 0.5)))
        print(
            String(
                format: "save CPU     p50 %8.1f us                   plain SQLite store p50 %8.1f us                   ratio %5.2fx",
                p(localCPU, 0.5), p(plainCPU, 0.5), p(localCPU, 0.5) / p(plainCPU, 0.5)))
        print(
            String(
                format:
                    "push 10,000  %10.1f ms   raw libpq, the same UPDATEs %d a transaction %10.1f ms   ratio %5.2fx (target <= 2x)   one a transaction %10.1f ms",
                push, ReplicaBench.pushBatch, rawPush, push / rawPush, rawPushEach))
        print(
            String(
                format:
                    "remote       p50 %8.2f ms  p99 %8.2f ms   (a save on replica A -> didChangeContent on replica B, online; target p99 <= 50 ms)",
                remoteP50, remoteP99))
        print(
            String(
                format: "first sync   %10.1f ms   raw COPY into a prepared SQLite insert %10.1f ms   ratio %5.2fx (target <= 2x)",
                firstSync, rawFirstSync, firstSync / rawFirstSync))
        if json {
            let fields = [
                "\"rows\": \(rows)",
                String(format: "\"local_save_p50_us\": %.1f", p(local, 0.5)), String(format: "\"local_save_p99_us\": %.1f", p(local, 0.99)),
                String(format: "\"sqlite_save_p50_us\": %.1f", p(plain, 0.5)),
                String(format: "\"sqlite_save_p99_us\": %.1f", p(plain, 0.99)),
                String(format: "\"local_save_cpu_p50_us\": %.1f", p(localCPU, 0.5)),
                String(format: "\"sqlite_save_cpu_p50_us\": %.1f", p(plainCPU, 0.5)),
                String(format: "\"push_10k_ms\": %.1f", push), String(format: "\"raw_push_10k_ms\": %.1f", rawPush),
                String(format: "\"remote_p50_ms\": %.3f", remoteP50), String(format: "\"remote_p99_ms\": %.3f", remoteP99),
                String(format: "\"first_sync_ms\": %.1f", firstSync), String(format: "\"raw_first_sync_ms\": %.1f", rawFirstSync),
            ]
            print("{" + fields.joined(separator: ", ") + "}")
        }
    }

    /// The server's store, filled through an ordinary container.
    private func fillServer() throws {
        let server = try PersistentContainer(schema: schema, store: .postgreSQL(uri))
        try fill(server.viewContext)
    }

    private func fill(_ context: ObjectContext) throws {
        try BenchItem.fill(context, rows: rows)
    }

    private func firstItems(_ context: ObjectContext, _ count: Int) throws -> [BenchItem] {
        var request = FetchRequest<BenchItem>(sortBy: [SortDescriptor(\.score)])
        request.fetchLimit = count
        return try context.fetch(request)
    }

    /// Saves on replica A, online, until a controller on replica B reported each: p50 and p99 (ms).
    private func remote(_ a: PersistentContainer, _ dir: URL) async throws -> (Double, Double) {
        let b = try PersistentContainer(schema: schema, store: .postgreSQL(uri, replica: dir.appendingPathComponent("b.sqlite").path))
        a.syncsAutomatically = true
        let controller = FetchedResultsController(
            fetchRequest: FetchRequest<BenchItem>(
                predicate: #Predicate { $0.score == -1 },
                sortBy: [SortDescriptor(\.name)]),
            managedObjectContext: b.viewContext, sectionNameKeyPath: nil)
        let heard = ReportTimes()
        controller.delegate = heard
        try controller.performFetch()
        var saved: [(Int64, Double)] = []
        for i in 0..<Self.remoteSaves {
            let item = BenchItem(context: a.viewContext)
            item.name = "remote \(i)"
            item.score = -1
            item.value = 0
            try a.viewContext.save()
            saved.append((item.objectID.rowID, StoreLatency.now()))
            // Saves apart, as a person makes them; the reports arrive meanwhile.
            let until = StoreLatency.now() + 20
            while StoreLatency.now() < until { try await Task.sleep(for: .milliseconds(1)) }
        }
        let deadline = StoreLatency.now() + 30_000
        while saved.contains(where: { heard.insertedAt[$0.0] == nil }) && StoreLatency.now() < deadline {
            try await Task.sleep(for: .milliseconds(1))
        }
        let latencies = saved.compactMap { s in heard.insertedAt[s.0].map { $0 - s.1 } }
        guard latencies.count == saved.count else {
            let missing = saved.filter { heard.insertedAt[$0.0] == nil }.map(\.0)
            let inB = try b.viewContext.fetch(FetchRequest<BenchItem>(predicate: #Predicate { $0.score == -1 })).map(\.objectID.rowID)
            let status = { (c: PersistentContainer) in c.syncStatus.map { "\($0.state)" } ?? "-" }
            throw StoreError.offline(
                store: uri,
                message: "\(missing.count) of \(saved.count) saves never reached replica B's controller "
                    + "(\(missing.filter(inB.contains).count) of them are in its store; A: \(status(a)), B: \(status(b)), "
                    + "controller shows \(controller.fetchedObjects?.count ?? -1))")
        }
        controller.delegate = nil
        return (ResultsBench.percentile(latencies, 0.5), ResultsBench.percentile(latencies, 0.99))
    }
}
