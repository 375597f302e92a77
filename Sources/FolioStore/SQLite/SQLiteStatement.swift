import CSQLite
import Foundation

/// Tells SQLite to copy bound text and blobs (they do not outlive the call).
private let SQLITE_TRANSIENT = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// A prepared statement: bind parameters, step, read columns.
package final class SQLiteStatement {
    let raw: OpaquePointer
    unowned let connection: SQLiteConnection
    let sql: String

    init(_ raw: OpaquePointer, connection: SQLiteConnection, sql: String) {
        self.raw = raw
        self.connection = connection
        self.sql = sql
    }

    deinit { sqlite3_finalize(raw) }

    package func reset() {
        sqlite3_reset(raw)
        sqlite3_clear_bindings(raw)
    }

    package func bind(_ values: [StoreValue]) throws {
        for (i, v) in values.enumerated() { try bind(v, at: Int32(i + 1)) }
    }

    package func bind(_ value: StoreValue, at index: Int32) throws {
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
    package func step() throws -> Bool {
        let rc = sqlite3_step(raw)
        if rc == SQLITE_ROW { return true }
        if rc == SQLITE_DONE { return false }
        let message = String(cString: sqlite3_errmsg(connection.db))
        sqlite3_reset(raw)
        throw connection.error(rc, message, sql: sql)
    }

    var columnCount: Int { Int(sqlite3_column_count(raw)) }

    package func int64(at i: Int) -> Int64 { sqlite3_column_int64(raw, Int32(i)) }

    package func value(at i: Int) -> StoreValue {
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
