import CSQLite
import Foundation

/// SQLITE_IOERR_SHMSIZE (a macro Swift does not import): the `-shm` index could not grow, which is a full disk.
private let ioErrorSHMSize = SQLITE_IOERR | (19 << 8)

/// One SQLite connection with a cache of prepared statements. Not thread-safe:
/// its owner serialises access. Package access: a replica's sync (FolioPostgres)
/// writes its own tables through one.
package final class SQLiteConnection {
    /// How the file is opened.
    enum Mode {
        /// Read and write; the file must exist (`:memory:` is made).
        case readWrite
        /// Read only, beside other connections (in WAL mode it uses the `-shm` index, made if missing).
        case readOnly
        /// Read only, as a file nothing else changes: no locks, no `-wal` or `-shm` read or made.
        case immutable
    }

    let db: OpaquePointer
    let path: String
    /// Shared with the container's other connections to the file.
    let health: StoreHealth
    /// Ends lock waits at their deadline (see ``SQLiteBusyWait``).
    let busyWait: SQLiteBusyWait
    private var statements: [String: SQLiteStatement] = [:]
    private var writesStopped = false

    /// A read-write connection to the existing file at `path`.
    package convenience init(path: String, busyTimeoutMilliseconds: Int32) throws {
        try self.init(path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds, mode: .readWrite, health: StoreHealth())
    }

    init(path: String, busyTimeoutMilliseconds: Int32, mode: Mode = .readWrite, health: StoreHealth = StoreHealth()) throws {
        var handle: OpaquePointer?
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI
        var name = path
        switch mode {
        case .readWrite: flags |= SQLITE_OPEN_READWRITE | (path == ":memory:" ? SQLITE_OPEN_CREATE : 0)
        case .readOnly: flags |= SQLITE_OPEN_READONLY
        case .immutable:
            flags |= SQLITE_OPEN_READONLY
            name = "file:" + (path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path) + "?immutable=1"
        }
        // Opened with URIs on: a relative path that happens to start with "file:" must stay a path.
        if mode != .immutable && path.hasPrefix("file:") { name = "./" + path }
        let rc = sqlite3_open_v2(name, &handle, flags, nil)
        guard rc == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            if let handle { sqlite3_close_v2(handle) }
            throw StoreError.cannotOpen(path: path, message: message)
        }
        db = handle
        self.path = path
        self.health = health
        busyWait = SQLiteBusyWait(timeoutNanoseconds: UInt64(max(0, busyTimeoutMilliseconds)) * 1_000_000)
        sqlite3_extended_result_codes(db, 1)
        busyWait.install(on: db)
        registerFunctions()
    }

    deinit {
        statements.removeAll()
        // Whichever connection closes last must not checkpoint a damaged file,
        // even one that ran no statement since the damage was found.
        if health.damage != nil { sqlite3_db_config_no_checkpoint_on_close(db) }
        sqlite3_close_v2(db)
    }

    /// Runs one or more statements without results.
    package func execute(_ sql: String) throws {
        stopWritesIfDamaged()
        var message: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(db, sql, nil, nil, &message)
        if rc != SQLITE_OK {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(db))
            sqlite3_free(message)
            throw error(rc, text, sql: sql)
        }
    }

    /// A prepared statement for `sql`, reset and cached for reuse.
    package func prepare(_ sql: String) throws -> SQLiteStatement {
        stopWritesIfDamaged()
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
    package func rows(_ sql: String, _ bindings: [StoreValue] = []) throws -> [[StoreValue]] {
        let s = try prepare(sql)
        try s.bind(bindings)
        var result: [[StoreValue]] = []
        while try s.step() { result.append((0..<s.columnCount).map { s.value(at: $0) }) }
        return result
    }

    /// Runs a statement that returns no rows.
    package func run(_ sql: String, _ bindings: [StoreValue] = []) throws {
        let s = try prepare(sql)
        try s.bind(bindings)
        while try s.step() {}
    }

    package var changes: Int { Int(sqlite3_changes(db)) }

    /// Once damage is known, no statement on this connection may write:
    /// `query_only` refuses every write, and closing does not checkpoint.
    private func stopWritesIfDamaged() {
        guard !writesStopped, health.damage != nil else { return }
        writesStopped = true
        sqlite3_exec(db, "PRAGMA query_only = 1", nil, nil, nil)
        sqlite3_db_config_no_checkpoint_on_close(db)
    }

    /// Maps an SQLite result code to the store's error, naming the file.
    /// Damage marks the store's health, so nothing more is written to it;
    /// the error codes of a full disk say so whatever the operation.
    func error(_ rc: Int32, _ message: String, sql: String) -> StoreError {
        let systemError = sqlite3_system_errno(db)
        if systemError == ENOSPC || systemError == EDQUOT || rc == ioErrorSHMSize { return .diskFull(path: path) }
        switch rc & 0xff {
        case SQLITE_NOTADB:
            health.markDamaged(message)
            return .notADatabase(path: path)
        case SQLITE_CORRUPT:
            health.markDamaged(message)
            stopWritesIfDamaged()
            return .corrupt(path: path, message: message)
        case SQLITE_READONLY:
            if let damage = health.damage { return .corrupt(path: path, message: damage) }
            return .readOnly(path: path)
        case SQLITE_BUSY, SQLITE_LOCKED: return .busy(path: path)
        case SQLITE_FULL: return .diskFull(path: path)
        case SQLITE_CANTOPEN: return .cannotOpen(path: path, message: message)
        default: return .sqlite(code: rc, message: message, sql: sql)
        }
    }
}
