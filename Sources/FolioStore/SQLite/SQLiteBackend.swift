import CSQLite
import Foundation

/// The SQLite implementation of ``StoreBackend``: one connection in WAL mode
/// with foreign keys on, used under the coordinator's lock.
final class SQLiteBackend: StoreBackend {
    let connection: SQLiteConnection
    let path: String
    let isInMemory: Bool
    /// Opened read-only: nothing is written (no migration, no reader row, no checkpoint).
    let isReadOnly: Bool
    /// Checkpoints the log off the save path; nil in memory, read-only and for write transactions.
    private(set) var checkpointer: WALCheckpointer?
    /// Whether a write transaction is open on this connection: a commit is then a savepoint of it.
    var inWriteTransaction = false
    let busyTimeoutMilliseconds: Int32
    /// A replica's journal, which each save writes in its transaction (nil for an ordinary store).
    var journal: (any SaveJournal)?

    /// Opens a connection to the store file at `path` (which
    /// ``StoreFile/inspect(_:for:)`` accepted; it must exist), or a new
    /// in-memory store for nil. Read-only connections leave the file as it
    /// is; where SQLite cannot make the `-shm` index beside it (a read-only
    /// folder, so nobody can be writing), they read it as immutable.
    init(
        path: String?, readOnly: Bool = false, health: StoreHealth = StoreHealth(),
        busyTimeoutMilliseconds: Int32 = 5000
    ) throws {
        isInMemory = path == nil
        isReadOnly = readOnly && path != nil
        self.path = path ?? ":memory:"
        self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
        if let path, !FileManager.default.fileExists(atPath: path) {
            throw StoreError.cannotOpen(path: path, message: "there is no store there")
        }
        do {
            connection = try Self.connect(self.path, readOnly: isReadOnly, health: health, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        } catch StoreError.readOnly(let path) {
            throw StoreError.cannotOpen(path: path, message: Self.writeProtected)
        }
        if !isInMemory && !isReadOnly && sqlite3_db_readonly(connection.db, "main") == 1 {
            // SQLite quietly opens a write-protected file for reading only; saying so now beats failing at the first save.
            throw StoreError.cannotOpen(path: self.path, message: Self.writeProtected)
        }
        if !isInMemory && !isReadOnly {
            let mode = try connection.rows("PRAGMA journal_mode=WAL")
            guard case .text(let m)? = mode.first?.first, m.lowercased() == "wal" else {
                throw StoreError.cannotOpen(path: self.path, message: "could not switch to WAL journal mode")
            }
            // NORMAL: a commit is in the log (the OS's cache) when save returns, so a
            // killed process loses nothing; only power loss can undo the latest saves.
            // FULL would add an fsync to every save.
            try connection.execute("PRAGMA synchronous=NORMAL")
            let checkpointer = WALCheckpointer(path: self.path, health: health, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
            try checkpointer.attach(to: connection)
            self.checkpointer = checkpointer
        }
        try connection.execute(isReadOnly ? "PRAGMA query_only=1; PRAGMA foreign_keys=ON" : "PRAGMA foreign_keys=ON")
        try connection.execute("PRAGMA cache_size = \(Self.defaultCacheSize)")
    }

    private static let writeProtected = "it or its folder is write-protected (open it read-only to read it)"

    /// The connection, after a first read: NOTADB and CORRUPT surface here,
    /// before anything is written.
    private static func connect(
        _ path: String, readOnly: Bool, health: StoreHealth,
        busyTimeoutMilliseconds: Int32
    ) throws -> SQLiteConnection {
        func opened(_ mode: SQLiteConnection.Mode) throws -> SQLiteConnection {
            let connection = try SQLiteConnection(path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds, mode: mode, health: health)
            _ = try connection.rows("SELECT count(*) FROM sqlite_master")
            return connection
        }
        if readOnly && readsUntouched(path) { return try opened(.immutable) }
        do {
            return try opened(readOnly ? .readOnly : .readWrite)
        } catch let error as StoreError {
            // Only a read-only open that could not make the index, with no log to read, falls back.
            guard readOnly, !FileManager.default.fileExists(atPath: path + "-wal") else { throw error }
            switch error {
            case .readOnly, .cannotOpen: return try opened(.immutable)
            default: throw error
            }
        }
    }

    /// Whether a read-only open reads the file as immutable: when this
    /// process may not write it and nobody has it open (no log). A
    /// read-only connection would otherwise make the `-wal` and `-shm`
    /// files beside it, owned by this user, which the store's owner could
    /// then not write (nor, in a sticky folder, remove). The reader sees
    /// the store as it was when opened.
    static func readsUntouched(_ path: String) -> Bool {
        access(path, W_OK) != 0 && StoreFile.size(of: path + "-wal") == nil
    }

    /// A connection of its own to `store`'s file with a write transaction
    /// open (`BEGIN IMMEDIATE`, waiting up to the busy timeout for other
    /// writers), so what it reads is the latest committed state and stays so
    /// until ``endWriteTransaction(commit:)``.
    init(writeTransactionOn store: SQLiteBackend) throws {
        if store.isReadOnly { throw StoreError.readOnly(path: store.path) }
        path = store.path
        isInMemory = false
        isReadOnly = false
        busyTimeoutMilliseconds = store.busyTimeoutMilliseconds
        journal = store.journal
        connection = try SQLiteConnection(path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds, health: store.connection.health)
        // As the store's connection: no fsync per commit, checkpoints left to its checkpointer.
        try connection.execute("PRAGMA synchronous=NORMAL; PRAGMA wal_autocheckpoint=0; PRAGMA foreign_keys=ON")
        try connection.execute("BEGIN IMMEDIATE")
        inWriteTransaction = true
    }

    deinit {
        // A damaged file gets no checkpoint: what the log holds stays there.
        if connection.health.damage == nil { checkpointer?.close(connection) } else { checkpointer?.detach(from: connection) }
    }

    // MARK: Reading

    private func selectSQL(_ plan: FetchPlan, columns: String) -> (String, [StoreValue]) {
        var sql = "SELECT \(columns) FROM \(quote(plan.entity.name)) t0"
        for j in plan.joins { sql += " " + j }
        var conditions: [String] = []
        var bindings = plan.bindings
        if let w = plan.whereSQL { conditions.append(w) }
        if let ids = plan.restrictToIDs { conditions.append(Self.idCondition("t0.id", ids, &bindings)) }
        if !plan.joinedIDs.isEmpty {
            conditions.append(
                "(" + plan.joinedIDs.map { Self.idCondition("\($0.alias).id", $0.ids, &bindings) }.joined(separator: " OR ") + ")")
        }
        if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
        if !plan.orderBy.isEmpty || plan.limit != nil {
            let terms = plan.orderBy.map { "\($0.sql) \($0.ascending ? "ASC" : "DESC")" } + ["t0.id ASC"]
            sql += " ORDER BY " + terms.joined(separator: ", ")
        }
        if plan.limit != nil || plan.offset != nil {
            sql += " LIMIT ? OFFSET ?"
            bindings += [.integer(Int64(plan.limit ?? -1)), .integer(Int64(plan.offset ?? 0))]
        }
        return (sql, bindings)
    }

    /// `column IN (...)`, binding the IDs.
    private static func idCondition(_ column: String, _ ids: [Int64], _ bindings: inout [StoreValue]) -> String {
        if ids.count <= 200 {
            bindings += ids.map { .integer($0) }
            return "\(column) IN (\(Array(repeating: "?", count: ids.count).joined(separator: ",")))"
        }
        // One JSON parameter instead of thousands (SQLite caps the number of parameters).
        bindings.append(.text("[" + ids.map(String.init).joined(separator: ",") + "]"))
        return "\(column) IN (SELECT value FROM json_each(?))"
    }

    func rowColumns(_ entity: EntityDescription) -> String {
        (["t0.id"] + entity.attributes.map { "t0." + quote($0.name) } + entity.toOnes.map { "t0." + quote($0.name) }
            + ["t0.\(RowVersion.column)"]).joined(separator: ", ")
    }

    func readRow(_ s: SQLiteStatement, _ entity: EntityDescription) -> StoredRow {
        let n = entity.attributes.count
        var attrs: [StoreValue] = []
        attrs.reserveCapacity(n)
        for i in 0..<n { attrs.append(s.value(at: i + 1)) }
        var ones: [ObjectID?] = []
        for (j, p) in entity.toOnes.enumerated() {
            let c = n + 1 + j
            ones.append(s.value(at: c).isNull ? nil : ObjectID(entityName: p.target.name, rowID: s.int64(at: c)))
        }
        return StoredRow(attributes: attrs, toOnes: ones, version: s.int64(at: n + 1 + ones.count))
    }

    func fetchRows(_ plan: FetchPlan) throws -> [(Int64, StoredRow)] {
        let (sql, bindings) = selectSQL(plan, columns: rowColumns(plan.entity))
        let s = try connection.prepare(sql)
        try s.bind(bindings)
        var result: [(Int64, StoredRow)] = []
        while try s.step() { result.append((s.int64(at: 0), readRow(s, plan.entity))) }
        releaseCacheAfterScan(of: result.count)
        return result
    }

    func fetchKeys(_ plan: FetchPlan, each body: (Int64, borrowing [StoreValue]) throws -> Void) throws {
        let (sql, bindings) = selectSQL(plan, columns: (["t0.id"] + plan.keyColumns).joined(separator: ", "))
        let s = try connection.prepare(sql)
        try s.bind(bindings)
        let n = plan.keyColumns.count
        // One buffer for every row: nothing is allocated per row but what its values hold.
        var values: [StoreValue] = []
        values.reserveCapacity(n)
        var count = 0
        while try s.step() {
            values.removeAll(keepingCapacity: true)
            for c in 0..<n { values.append(s.value(at: c + 1)) }
            try body(s.int64(at: 0), values)
            count += 1
        }
        releaseCacheAfterScan(of: count)
    }

    func fetchKeys(_ plan: FetchPlan) throws -> [(Int64, [StoreValue])] {
        var result: [(Int64, [StoreValue])] = []
        try fetchKeys(plan) { id, values in result.append((id, copy values)) }
        return result
    }

    /// Frees the page cache after a read of many rows. The cache is worth
    /// its size within one query (an index-order read revisits table pages)
    /// but little after it: in WAL mode another connection's next save
    /// empties it anyway, and meanwhile it would hold up to
    /// ``defaultCacheSize`` (some 17 bytes a row at a million rows) beside
    /// the results.
    private func releaseCacheAfterScan(of rows: Int) {
        if rows >= 10_000 { releaseCachedPages() }
    }

    func releaseCachedPages() { sqlite3_db_release_memory(connection.db) }

    func count(_ plan: FetchPlan) throws -> Int {
        var p = plan
        p.orderBy = []
        let (inner, bindings) = selectSQL(p, columns: "t0.id")
        let sql =
            plan.limit == nil && plan.offset == nil
            ? inner.replacingOccurrences(
                of: "SELECT t0.id FROM", with: "SELECT count(*) FROM", options: .anchored) : "SELECT count(*) FROM (\(inner))"
        guard case .integer(let n)? = try connection.rows(sql, bindings).first?.first else { return 0 }
        return Int(n)
    }

    func rows(of entity: EntityDescription, ids: [Int64]) throws -> [Int64: StoredRow] {
        var result: [Int64: StoredRow] = [:]
        var start = 0
        while start < ids.count {
            let chunk = Array(ids[start..<min(start + 500, ids.count)])
            start += chunk.count
            let marks = Array(repeating: "?", count: chunk.count).joined(separator: ",")
            let s = try connection.prepare("SELECT \(rowColumns(entity)) FROM \(quote(entity.name)) t0 WHERE t0.id IN (\(marks))")
            try s.bind(chunk.map { .integer($0) })
            while try s.step() { result[s.int64(at: 0)] = readRow(s, entity) }
        }
        return result
    }

    func members(of p: PropertyDescription, owner: Int64) throws -> [Int64] {
        guard let sql = dialect.membersQuery(p) else { return [] }
        let s = try connection.prepare(sql)
        try s.bind(.integer(owner), at: 1)
        var ids: [Int64] = []
        while try s.step() { ids.append(s.int64(at: 0)) }
        return ids
    }
}

/// Quotes an identifier for SQL (names come from the schema, never from user values).
/// Every save builds its statements with it, so a name holding no quote
/// (all of them, in practice) skips Foundation's search and replace.
package func quote(_ name: String) -> String {
    guard name.utf8.contains(UInt8(ascii: "\"")) else { return "\"" + name + "\"" }
    return "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
}
