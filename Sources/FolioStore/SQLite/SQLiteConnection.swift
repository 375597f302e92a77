import CSQLite
import Foundation


/// One SQLite connection with a cache of prepared statements. Not thread-safe:
/// its owner serialises access.
final class SQLiteConnection {
    let db: OpaquePointer
    let path: String
    private var statements: [String: SQLiteStatement] = [:]

    init(path: String, busyTimeoutMilliseconds: Int32) throws {
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI
        let rc = sqlite3_open_v2(path, &handle, flags, nil)
        guard rc == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            if let handle { sqlite3_close_v2(handle) }
            throw StoreError.cannotOpen(path: path, message: message)
        }
        db = handle
        self.path = path
        sqlite3_extended_result_codes(db, 1)
        sqlite3_busy_timeout(db, busyTimeoutMilliseconds)
        registerFunctions()
    }

    deinit {
        statements.removeAll()
        sqlite3_close_v2(db)
    }

    /// Runs one or more statements without results.
    func execute(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(db, sql, nil, nil, &message)
        if rc != SQLITE_OK {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(db))
            sqlite3_free(message)
            throw error(rc, text, sql: sql)
        }
    }

    /// A prepared statement for `sql`, reset and cached for reuse.
    func prepare(_ sql: String) throws -> SQLiteStatement {
        if let s = statements[sql] { s.reset(); return s }
        var raw: OpaquePointer?
        let rc = sqlite3_prepare_v3(db, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &raw, nil)
        guard rc == SQLITE_OK, let raw else { throw error(rc, String(cString: sqlite3_errmsg(db)), sql: sql) }
        let s = SQLiteStatement(raw, connection: self, sql: sql)
        if statements.count > 200 { statements.removeAll() }
        statements[sql] = s
        return s
    }

    /// Runs a query and returns every row's values.
    func rows(_ sql: String, _ bindings: [StoreValue] = []) throws -> [[StoreValue]] {
        let s = try prepare(sql)
        try s.bind(bindings)
        var result: [[StoreValue]] = []
        while try s.step() { result.append((0..<s.columnCount).map { s.value(at: $0) }) }
        return result
    }

    /// Runs a statement that returns no rows.
    func run(_ sql: String, _ bindings: [StoreValue] = []) throws {
        let s = try prepare(sql)
        try s.bind(bindings)
        while try s.step() {}
    }

    var changes: Int { Int(sqlite3_changes(db)) }

    /// Maps an SQLite result code to the store's error, naming the file.
    func error(_ rc: Int32, _ message: String, sql: String) -> StoreError {
        switch rc & 0xff {
        case SQLITE_NOTADB: .notADatabase(path: path)
        case SQLITE_CORRUPT: .corrupt(path: path, message: message)
        case SQLITE_BUSY, SQLITE_LOCKED: .busy(path: path)
        case SQLITE_FULL: .diskFull(path: path)
        case SQLITE_CANTOPEN: .cannotOpen(path: path, message: message)
        default: .sqlite(code: rc, message: message, sql: sql)
        }
    }
}
