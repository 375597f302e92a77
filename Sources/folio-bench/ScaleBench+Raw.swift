import CLibPQ
import FolioPostgres
import FolioStore
import Foundation
import Synchronization

/// The scale benchmark's baseline: `writers` threads, each on a libpq
/// connection of its own, inserting one row per transaction
/// (`BEGIN; INSERT …; COMMIT` in one round trip) with no change feed at
/// all, in a schema of its own.
enum ScaleRaw {
    /// Makes the baseline's table (the store's shape: an ID, a name, an indexed score, a value).
    static func create(_ uri: String) throws {
        let raw = try RawPostgres(uri)
        try raw.exec(
            """
            DROP SCHEMA IF EXISTS folio_scale_raw CASCADE; CREATE SCHEMA folio_scale_raw;
            CREATE TABLE folio_scale_raw.item (id BIGINT PRIMARY KEY, name TEXT, score BIGINT, value DOUBLE PRECISION);
            CREATE INDEX item_score ON folio_scale_raw.item(score)
            """)
    }

    /// Runs the writers for `seconds` and returns the saves made; with
    /// `notifying`, each transaction also NOTIFYs (as a save announcing
    /// itself to listeners would), to show what that costs on its own.
    static func run(_ uri: String, writers: Int, seconds: Double, notifying: Bool = false) throws -> Int {
        let connections = try (0..<writers).map { _ in try RawPostgres(uri) }
        let total = Atomic<Int>(0)
        let end = StoreLatency.now() + seconds * 1000
        let group = DispatchGroup()
        for (w, raw) in connections.enumerated() {
            let box = UncheckedBox(raw)
            group.enter()
            Thread {
                var saves = 0
                while StoreLatency.now() < end {
                    // IDs of their own per writer and run: no two transactions insert the same.
                    let id = (notifying ? 1 << 40 : 0) + w << 32 + saves + 1
                    let notify = notifying ? " SELECT pg_notify('folio_scale_raw', '\(id)');" : ""
                    let sql =
                        "BEGIN; INSERT INTO folio_scale_raw.item VALUES (\(id), 'writer \(w)', \(saves + 1), 0);\(notify) COMMIT"
                    guard (try? box.value.exec(sql)) != nil else { break }
                    saves += 1
                }
                total.add(saves, ordering: .relaxed)
                group.leave()
            }.start()
        }
        group.wait()
        return total.load(ordering: .relaxed)
    }
}

/// The peak number of client connections on the server while it runs, sampled every 20 ms.
final class ConnectionWatch: @unchecked Sendable {  // `raw` is used by the sampling thread only
    private let raw: RawPostgres
    private let peakCount = Atomic<Int>(0)
    private let running = Atomic<Bool>(true)
    private let done = DispatchSemaphore(value: 0)

    init(_ uri: String) throws {
        raw = try RawPostgres(uri)
        Thread { [self] in
            while running.load(ordering: .relaxed) {
                if let n = try? raw.count(
                    "SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()")
                {
                    peakCount.store(max(peakCount.load(ordering: .relaxed), n), ordering: .relaxed)
                }
                usleep(20_000)
            }
            done.signal()
        }.start()
    }

    /// Stops sampling and returns the peak.
    func stop() -> Int {
        running.store(false, ordering: .relaxed)
        done.wait()
        return peakCount.load(ordering: .relaxed)
    }
}

/// A value handed to one other thread, which alone uses it from then on.
struct UncheckedBox<Value>: @unchecked Sendable {  // the receiving thread is the value's only user
    let value: Value
    init(_ value: Value) { self.value = value }
}

extension RawPostgres {
    /// The first column of every row of `sql`, as text.
    func texts(_ sql: String) throws -> [String] {
        let result = PQexec(connection, sql)
        defer { PQclear(result) }
        guard PQresultStatus(result) == PGRES_TUPLES_OK else {
            throw StoreError.server(store: "raw baseline", code: "", message: String(cString: PQerrorMessage(connection)), sql: sql)
        }
        return (0..<PQntuples(result)).map { String(cString: PQgetvalue(result, $0, 0)) }
    }

    /// The first column of the first row of `sql`, as a whole number.
    func count(_ sql: String) throws -> Int {
        let result = PQexec(connection, sql)
        defer { PQclear(result) }
        guard PQresultStatus(result) == PGRES_TUPLES_OK, PQntuples(result) > 0 else {
            throw StoreError.server(store: "raw baseline", code: "", message: String(cString: PQerrorMessage(connection)), sql: sql)
        }
        return Int(strtoll(PQgetvalue(result, 0, 0), nil, 10))
    }
}
