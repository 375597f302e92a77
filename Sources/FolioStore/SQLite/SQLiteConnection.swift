import CSQLite
import Foundation

private let SQLITE_TRANSIENT = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

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

/// A prepared statement: bind parameters, step, read columns.
final class SQLiteStatement {
    let raw: OpaquePointer
    unowned let connection: SQLiteConnection
    let sql: String

    init(_ raw: OpaquePointer, connection: SQLiteConnection, sql: String) {
        self.raw = raw
        self.connection = connection
        self.sql = sql
    }

    deinit { sqlite3_finalize(raw) }

    func reset() {
        sqlite3_reset(raw)
        sqlite3_clear_bindings(raw)
    }

    func bind(_ values: [StoreValue]) throws {
        for (i, v) in values.enumerated() { try bind(v, at: Int32(i + 1)) }
    }

    func bind(_ value: StoreValue, at index: Int32) throws {
        let rc: Int32
        switch value {
        case .null: rc = sqlite3_bind_null(raw, index)
        case .integer(let v): rc = sqlite3_bind_int64(raw, index, v)
        case .real(let v): rc = sqlite3_bind_double(raw, index, v)
        case .text(let v): rc = sqlite3_bind_text(raw, index, v, -1, SQLITE_TRANSIENT)
        case .blob(let v):
            rc = v.withUnsafeBytes { sqlite3_bind_blob(raw, index, $0.baseAddress, Int32($0.count), SQLITE_TRANSIENT) }
        }
        if rc != SQLITE_OK { throw connection.error(rc, String(cString: sqlite3_errmsg(connection.db)), sql: sql) }
    }

    /// Advances; true when a row is available.
    func step() throws -> Bool {
        let rc = sqlite3_step(raw)
        if rc == SQLITE_ROW { return true }
        if rc == SQLITE_DONE { return false }
        let message = String(cString: sqlite3_errmsg(connection.db))
        sqlite3_reset(raw)
        throw connection.error(rc, message, sql: sql)
    }

    var columnCount: Int { Int(sqlite3_column_count(raw)) }

    func int64(at i: Int) -> Int64 { sqlite3_column_int64(raw, Int32(i)) }

    func value(at i: Int) -> StoreValue {
        let c = Int32(i)
        switch sqlite3_column_type(raw, c) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(raw, c))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(raw, c))
        case SQLITE_TEXT:
            let n = Int(sqlite3_column_bytes(raw, c))
            guard let p = sqlite3_column_text(raw, c) else { return .text("") }
            return .text(String(decoding: UnsafeBufferPointer(start: p, count: n), as: UTF8.self))
        case SQLITE_BLOB:
            let n = Int(sqlite3_column_bytes(raw, c))
            guard let p = sqlite3_column_blob(raw, c) else { return .blob(Data()) }
            return .blob(Data(bytes: p, count: n))
        default: return .null
        }
    }
}
