import FolioResults
import FolioStore
import Foundation

/// One live client of the scale benchmark: a container with a controller
/// sectioned by writer, noting when `didChangeContent` reports each
/// inserted object (each save inserts one, so a report names its save).
@MainActor
final class ScaleClient: FetchedResultsControllerDelegate {
    let container: PersistentContainer
    let controller: FetchedResultsController<BenchItem>
    /// Per object row ID, each time its insertion was reported.
    var reports: [Int64: [Double]] = [:]
    /// The rows of each report, in the order reported.
    var batches: [[Int64]] = []

    init(uri: String) throws {
        container = try PersistentContainer(schema: ScaleBench.schema, store: .postgreSQL(uri))
        controller = FetchedResultsController(
            fetchRequest: FetchRequest<BenchItem>(sortBy: [SortDescriptor(\.name), SortDescriptor(\.score)]),
            managedObjectContext: container.viewContext, sectionNameKeyPath: \BenchItem.name)
        controller.delegate = self
        try controller.performFetch()
    }

    func controller(_ controller: AnyFetchedResultsController, didChangeContentWith changes: FetchedResultsChanges) {
        let at = StoreLatency.now()
        let rows = changes.objectChanges.filter { $0.type == .insert }.map(\.id.rowID)
        for row in rows { reports[row, default: []].append(at) }
        if !rows.isEmpty { batches.append(rows) }
    }

    func heard(_ row: Int64) -> Bool { reports[row] != nil }
}

/// What the clients of one process found, given the saves made.
struct ScaleTally {
    /// Visibility latencies in tenths of a millisecond, with their counts.
    var latencies: [Int: Int] = [:]
    var missed = 0
    var duplicated = 0
    var outOfOrder = 0

    /// A save's first report is its visibility; none is a miss, each further
    /// one a duplicate; a report naming a save committed before one an
    /// earlier report named is out of order.
    @MainActor
    mutating func add(_ client: ScaleClient, saves: [ScaleSave]) {
        var rank: [Int64: Int] = [:]
        for save in saves { rank[save.row] = save.rank }
        var newest = -1
        for batch in client.batches {
            let ranks = batch.compactMap { rank[$0] }
            guard let first = ranks.min(), let last = ranks.max() else { continue }
            if first < newest { outOfOrder += 1 }
            newest = max(newest, last)
        }
        for save in saves {
            guard let times = client.reports[save.row] else {
                missed += 1
                continue
            }
            latencies[Int(max(0, times[0] - save.at) * 10), default: 0] += 1
            duplicated += times.count - 1
        }
    }
}

/// One save as the parent made it: the object, its new score, when `save()`
/// returned (ms, CLOCK_MONOTONIC), and its place in commit order (its history row's).
struct ScaleSave: Sendable {
    var row: Int64
    var score: Int
    var at: Double
    var rank = 0
}

extension ScaleBench {
    /// `folio-bench postgres-scale --client-child URI --clients N`: opens the
    /// clients and says `ready`; reads the saves made (`row score at rank` lines,
    /// then `end`) from standard input; waits until each client heard the
    /// save (at most 30 s) and prints its tally.
    @MainActor
    static func runClients(uri: String, count: Int) async throws {
        let clients = try (0..<count).map { _ in try ScaleClient(uri: uri) }
        say("ready")
        // Waited for without polling: a wake every few milliseconds in each process would be counted as the clients' cost.
        let saves: [ScaleSave] = await ScaleBench.off {
            var saves: [ScaleSave] = []
            while let line = readLine(), line != "end" {
                let f = line.split(separator: " ")
                if f.count == 4, let row = Int64(f[0]), let score = Int(f[1]), let at = Double(f[2]), let rank = Int(f[3]) {
                    saves.append(ScaleSave(row: row, score: score, at: at, rank: rank))
                }
            }
            return saves
        }
        let deadline = StoreLatency.now() + 30_000
        // Each client's first save not heard yet: a check costs what was heard since the last, not every save again.
        var unheard = clients.map { _ in 0 }
        func allHeard() -> Bool {
            for (i, client) in clients.enumerated() {
                while unheard[i] < saves.count && client.heard(saves[unheard[i]].row) { unheard[i] += 1 }
                if unheard[i] < saves.count { return false }
            }
            return true
        }
        while StoreLatency.now() < deadline, !allHeard() {
            try await Task.sleep(for: .milliseconds(5))
        }
        // A moment more, for any duplicate delivery still on its way.
        try await Task.sleep(for: .milliseconds(200))
        var tally = ScaleTally()
        for client in clients { tally.add(client, saves: saves) }
        for (tenths, n) in tally.latencies { say("lat \(tenths) \(n)") }
        say("missed \(tally.missed)")
        say("duplicated \(tally.duplicated)")
        say("out-of-order \(tally.outOfOrder)")
        say("done")
    }

    static func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }
}
