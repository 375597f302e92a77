import CLibPQ
import FolioPostgres
import FolioStore
import Foundation

/// The raw baseline: libpq on one connection, the same table shape as the
/// store's (`id`, `name`, `score`, `value`, an index on `score`), in a
/// schema of its own.
final class RawPostgres {
    let connection: OpaquePointer

    init(_ uri: String) throws {
        guard let c = PQconnectdb(uri), PQstatus(c) == CONNECTION_OK else {
            throw StoreError.offline(store: PGDisplay.redacted(uri), message: "the raw baseline could not connect")
        }
        connection = c
        // The DROP … CASCADE notices are not the benchmark's output.
        PQclear(PQexec(c, "SET client_min_messages = warning"))
    }

    deinit { PQfinish(connection) }

    func exec(_ sql: String) throws {
        let result = PQexec(connection, sql)
        defer { PQclear(result) }
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else { throw error(sql) }
    }

    /// Runs the prepared `update_score` of ``fill(rows:)``: one row's score.
    func updateScore(_ score: Int, id: Int) throws {
        let result = String(score).withCString { s in
            String(id).withCString { d in
                var values: [UnsafePointer<CChar>?] = [s, d]
                return PQexecPrepared(connection, "update_score", 2, &values, nil, nil, 0)
            }
        }
        let ok = PQresultStatus(result) == PGRES_COMMAND_OK
        PQclear(result)
        guard ok else { throw error("UPDATE") }
    }

    private func error(_ sql: String) -> StoreError {
        StoreError.server(store: "raw baseline", code: "", message: String(cString: PQerrorMessage(connection)), sql: sql)
    }

    /// Fills the table with `rows` rows and prepares the UPDATE the saves run.
    func fill(rows: Int) throws {
        try exec(
            """
            CREATE SCHEMA folio_bench_raw;
            CREATE TABLE folio_bench_raw.item (id BIGINT PRIMARY KEY, name TEXT COLLATE "C", score BIGINT, value DOUBLE PRECISION);
            INSERT INTO folio_bench_raw.item SELECT i, 'item ' || (i - 1), ((i - 1) * 7919) % \(rows), (i - 1) * 0.5 FROM generate_series(1::bigint, \(rows)) i;
            CREATE INDEX item_score ON folio_bench_raw.item(score);
            ANALYZE folio_bench_raw.item
            """)
        let prepared = PQprepare(
            connection, "update_score", "UPDATE folio_bench_raw.item SET score = $1::bigint WHERE id = $2::bigint", 2, nil)
        PQclear(prepared)
    }

    /// Times the `i`th single-row UPDATE in a transaction of its own (µs).
    func saveMicroseconds(_ i: Int, rows: Int) throws -> Double {
        let start = StoreLatency.now()
        try exec("BEGIN")
        try updateScore(rows + i, id: i + 1)
        try exec("COMMIT")
        return (StoreLatency.now() - start) * 1000
    }

    /// `SELECT id, score … ORDER BY score` read into arrays, the median of `repeats` (ms).
    func fetchMS(repeats: Int) throws -> Double {
        var times: [Double] = []
        for _ in 0..<repeats {
            let start = StoreLatency.now()
            let result = PQexec(connection, "SELECT id, score FROM folio_bench_raw.item ORDER BY score, id")
            defer { PQclear(result) }
            guard PQresultStatus(result) == PGRES_TUPLES_OK else { throw error("SELECT") }
            let n = PQntuples(result)
            var ids = [Int64](), scores = [Int64]()
            ids.reserveCapacity(Int(n))
            scores.reserveCapacity(Int(n))
            for r in 0..<n {
                ids.append(strtoll(PQgetvalue(result, r, 0), nil, 10))
                scores.append(strtoll(PQgetvalue(result, r, 1), nil, 10))
            }
            precondition(ids.count == scores.count)
            times.append(StoreLatency.now() - start)
        }
        return times.sorted()[times.count / 2]
    }
}
