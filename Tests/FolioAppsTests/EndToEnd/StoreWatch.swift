import CSQLite
import Foundation

/// Tells whether another connection committed to an SQLite store since the
/// last look, by SQLite's own counter (`PRAGMA data_version`): the monkey
/// checks each key that wrote against what the screen showed before it.
final class StoreWatch {
    private var db: OpaquePointer?
    private var last: Int64 = 0

    /// Watches the store at `path` (read-only; it must exist).
    init(_ path: String) throws {
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close(db)
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "cannot watch \(path): \(message)"])
        }
        sqlite3_busy_timeout(db, 5_000)
        last = version()
    }

    deinit { sqlite3_close(db) }

    /// Whether a commit happened since the last call (or since `init`).
    func changed() -> Bool {
        let now = version()
        defer { last = now }
        return now != last
    }

    private func version() -> Int64 {
        var statement: OpaquePointer?
        defer { sqlite3_finalize(statement) }
        guard sqlite3_prepare_v2(db, "PRAGMA data_version", -1, &statement, nil) == SQLITE_OK,
            sqlite3_step(statement) == SQLITE_ROW
        else { return -1 }
        return sqlite3_column_int64(statement, 0)
    }
}
