import CLibPQ
import CSQLite
import FolioStore
import Foundation

// The replica benchmark's raw baselines: libpq's COPY read into a prepared
// SQLite insert (a first sync done by hand), and the pushed writes as plain
// prepared UPDATEs.
extension RawPostgres {
    /// Reads the store's items with `COPY … TO STDOUT` and writes them into a
    /// new SQLite file (WAL, the same table and index) with a prepared insert, in one transaction (ms).
    func copyIntoSQLite(_ path: String) throws -> Double {
        let start = StoreLatency.now()
        var db: OpaquePointer?
        guard sqlite3_open(path, &db) == SQLITE_OK, let db else { throw StoreError.cannotOpen(path: path, message: "raw baseline") }
        defer { sqlite3_close(db) }
        func run(_ sql: String) throws {
            guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else {
                throw StoreError.cannotOpen(path: path, message: String(cString: sqlite3_errmsg(db)))
            }
        }
        try run(
            """
            PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;
            CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT, score INTEGER, value REAL);
            CREATE INDEX item_score ON item(score);
            BEGIN
            """)
        var insert: OpaquePointer?
        guard sqlite3_prepare_v2(db, "INSERT INTO item (id, name, score, value) VALUES (?, ?, ?, ?)", -1, &insert, nil) == SQLITE_OK else {
            throw StoreError.cannotOpen(path: path, message: String(cString: sqlite3_errmsg(db)))
        }
        defer { sqlite3_finalize(insert) }
        let copy = PQexec(connection, "COPY (SELECT id, name, score, value FROM \"BenchItem\") TO STDOUT")
        let status = PQresultStatus(copy)
        PQclear(copy)
        guard status == PGRES_COPY_OUT else { throw StoreError.offline(store: "raw baseline", message: "COPY did not start") }
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        while true {
            var buffer: UnsafeMutablePointer<CChar>?
            let length = PQgetCopyData(connection, &buffer, 0)
            guard length > 0, let line = buffer else { break }
            defer { PQfreemem(line) }
            // id \t name \t score \t value \n (the bench's names hold no tab or backslash).
            var fields: [UnsafeMutablePointer<CChar>] = [line]
            var p = line
            while p.pointee != 0 && p.pointee != 10 {
                if p.pointee == 9 {
                    p.pointee = 0
                    fields.append(p + 1)
                }
                p += 1
            }
            p.pointee = 0
            guard fields.count == 4 else { continue }
            sqlite3_bind_int64(insert, 1, strtoll(fields[0], nil, 10))
            sqlite3_bind_text(insert, 2, fields[1], -1, transient)
            sqlite3_bind_int64(insert, 3, strtoll(fields[2], nil, 10))
            sqlite3_bind_double(insert, 4, strtod(fields[3], nil))
            guard sqlite3_step(insert) == SQLITE_DONE else {
                throw StoreError.cannotOpen(path: path, message: String(cString: sqlite3_errmsg(db)))
            }
            sqlite3_reset(insert)
        }
        PQclear(PQgetResult(connection))
        try run("COMMIT")
        return StoreLatency.now() - start
    }

    /// `count` single-row UPDATEs (the prepared `update_score` of ``fill(rows:)``), `perTransaction` to a transaction (ms).
    func updatesMS(_ count: Int, rows: Int, perTransaction: Int) throws -> Double {
        let start = StoreLatency.now()
        for i in 0..<count {
            if i % perTransaction == 0 { try exec("BEGIN") }
            try updateScore(rows + i, id: i % rows + 1)
            if i % perTransaction == perTransaction - 1 || i == count - 1 { try exec("COMMIT") }
        }
        return StoreLatency.now() - start
    }
}
