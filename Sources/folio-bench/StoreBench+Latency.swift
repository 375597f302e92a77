import FolioLocking
import FolioProcessSupport
import FolioStore
import Foundation
import Glibc

/// How soon a save reaches the view context's observers: from a background
/// context of this process (the in-process broadcast), and from a real
/// second process (the change feed, woken by the store's files changing).
/// Each sample runs from the moment `save()` returned in the saver to the
/// observer's call on this process's idle main actor, on CLOCK_MONOTONIC
/// (one clock for every process of the machine).
struct StoreLatency {
    var sameProcess: [Double] = []
    var otherProcess: [Double] = []

    /// Saves per measurement, paced 2–6 ms apart so that each is its own event.
    static let saves = 300

    static func percentile(_ values: [Double], _ p: Double) -> Double { ResultsBench.percentile(values, p) }

    /// Milliseconds on CLOCK_MONOTONIC.
    static func now() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) * 1000 + Double(t.tv_nsec) / 1_000_000
    }

    static func pause(_ index: Int) { usleep(UInt32(2000 + (index &* 7919) % 4000)) }
}

extension StoreBench {
    /// Measures both latencies against `container`'s view context (its store holds the benchmark's rows).
    func latency(_ container: PersistentContainer, path: String) async throws -> StoreLatency {
        let heard = HeardTimes()
        let token = container.viewContext.observeChanges { changes in
            let at = StoreLatency.now()
            heard.times.withLock { for id in changes.inserted { $0[id.rowID] = at } }
        }
        defer { token.cancel() }
        var result = StoreLatency()

        // Same process: a background context saves, the view context hears the broadcast.
        let background = container.newBackgroundContext()
        let saved = try await background.perform { context -> [(Int64, Double)] in
            var saved: [(Int64, Double)] = []
            for i in 0..<StoreLatency.saves {
                let item = BenchItem(context: context)
                item.name = "same process \(i)"
                item.score = -1
                item.value = 0
                try context.save()
                saved.append((item.objectID.rowID, StoreLatency.now()))
                StoreLatency.pause(i)
            }
            return saved
        }
        result.sameProcess = try await samples(saved, heard)

        // Another process: this benchmark again, saving in a child.
        let child = try LatencyChild(path: path)
        // Read the child's lines on another thread: the main actor must stay free to hear its saves.
        async let fromChild = withCheckedThrowingContinuation { (continuation: CheckedContinuation<[(Int64, Double)], any Error>) in
            DispatchQueue.global().async { continuation.resume(with: Result { try child.run() }) }
        }
        result.otherProcess = try await samples(try await fromChild, heard)
        return result
    }

    /// Waits (on the main actor, leaving it free) until every save was heard; the latencies in ms.
    private func samples(_ saved: [(Int64, Double)], _ heard: HeardTimes) async throws -> [Double] {
        let deadline = StoreLatency.now() + 30_000
        while heard.times.withLock({ map in saved.contains { map[$0.0] == nil } }) {
            guard StoreLatency.now() < deadline else {
                let missing = heard.times.withLock { map in saved.filter { map[$0.0] == nil }.count }
                throw StoreError.sqlite(code: 0, message: "\(missing) of \(saved.count) saves were not heard within 30 s", sql: "")
            }
            try await Task.sleep(for: .milliseconds(1))
        }
        return heard.times.withLock { map in saved.map { map[$0.0]! - $0.1 } }
    }
}

/// When the observer heard each inserted row, by row ID.
final class HeardTimes: Sendable {
    let times = LockedValue<[Int64: Double]>([:])
}

/// `folio-bench store --save-child PATH` in a process of its own: waits for
/// a line on stdin, then saves ``StoreLatency/saves`` items, printing each
/// one's row ID and the time its save returned.
final class LatencyChild: @unchecked Sendable {  // made on the main actor, then used by one reading thread only
    private let process: ChildProcess

    convenience init(path: String) throws { try self.init(arguments: ["store", "--save-child", path]) }

    /// This benchmark again with `arguments` (a suite's save-child mode).
    init(arguments: [String]) throws {
        process = try ChildProcess(
            URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path, arguments, input: .pipe, output: .pipe,
            errors: .inherit)
    }

    /// Starts the saves and returns (row ID, save returned at) for each.
    func run() throws -> [(Int64, Double)] {
        guard let reader = process.output else { return [] }
        var text = ""
        func line() -> String? {
            while !text.contains("\n") {
                let data = reader.availableData
                if data.isEmpty { return nil }
                text += String(decoding: data, as: UTF8.self)
            }
            let end = text.firstIndex(of: "\n")!
            defer { text = String(text[text.index(after: end)...]) }
            return String(text[..<end])
        }
        guard line() == "ready" else { throw StoreError.sqlite(code: 0, message: "the saving child did not start", sql: "") }
        try process.input?.write(contentsOf: Data("go\n".utf8))
        var saved: [(Int64, Double)] = []
        while let next = line(), next != "done" {
            let fields = next.split(separator: " ")
            guard fields.count == 2, let id = Int64(fields[0]), let at = Double(fields[1]) else { continue }
            saved.append((id, at))
        }
        process.wait()
        return saved
    }

    /// The child's side.
    @MainActor
    static func save(store: StoreDescription, schema: Schema = Schema([BenchItem.self])) throws {
        let container = try PersistentContainer(schema: schema, store: store)
        let context = container.viewContext
        say("ready")
        _ = readLine()
        for i in 0..<StoreLatency.saves {
            let item = BenchItem(context: context)
            item.name = "other process \(i)"
            item.score = -1
            item.value = 0
            try context.save()
            say("\(item.objectID.rowID) " + String(format: "%.4f", StoreLatency.now()))
            StoreLatency.pause(i)
        }
        say("done")
    }

    /// Writes a line to stdout at once (the parent reads it as it comes).
    private static func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }
}
