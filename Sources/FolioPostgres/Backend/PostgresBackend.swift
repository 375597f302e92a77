import Dispatch
import FolioLocking
import FolioStore
import Foundation

/// The PostgreSQL implementation of ``StoreBackend``: one libpq connection,
/// its names resolved in the schema's namespace, used under its locked connection's lock.
/// Writers take the namespace's advisory locks (``PostgresLock``): saves
/// write side by side, and a write transaction excludes every other
/// writer, so it means on a server what it means on SQLite.
final class PostgresBackend: StoreBackend {
    /// Statements this process ran to read stored rows (objects, keys, and
    /// the rows a feed hub reads for its containers), per server URI, for tests to count.
    private static let rowReadCounts = LockedValue<[String: Int]>([:])
    let connection: PGConnection
    let server: PostgresServer
    let namespace: String?
    let path: String
    let isReadOnly: Bool
    let busyTimeoutMilliseconds: Int32
    /// Whether this connection holds a write transaction for `performWrite`: a commit is then a savepoint of it.
    var inWriteTransaction = false
    /// IDs drawn ahead, per entity, for later saves (see ``allocateIDs(_:)``).
    var spareIDs: [String: [Int64]] = [:]

    var isInMemory: Bool { false }
    var dialect: SQLDialect { PostgresDialect() }
    var lockKey: Int64 { PostgresLock.key(namespace ?? "") }

    /// Reads outside a write go through this process's pool (nil: through `connection`).
    let pool: PostgresPool?

    /// With `pooledReads`, the backend's own session opens with its first
    /// write (or its first statement inside a write), and reads outside one
    /// borrow a connection of the process's pool.
    init(server: PostgresServer, namespace: String?, readOnly: Bool, busyTimeoutMilliseconds: Int32, pooledReads: Bool = false) throws {
        self.server = server
        self.namespace = namespace
        isReadOnly = readOnly
        self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
        path = server.displayName
        pool = pooledReads ? PostgresPool.shared(server, namespace: namespace, readOnly: readOnly) : nil
        connection = try server.openConnection(namespace: namespace, readOnly: readOnly, lazily: pooledReads)
    }

    deinit { pool?.release() }

    /// Runs a read on a pooled connection, or on this one inside a write (whose changes it must see).
    func reading<T>(_ body: (PGConnection) throws -> T) throws -> T {
        guard let pool, !inWriteTransaction, !isWriting else { return try body(connection) }
        return try pool.with(body)
    }

    // MARK: Reading

    private func selectSQL(_ plan: FetchPlan, columns: String) -> (String, [StoreValue]) {
        var sql = "SELECT \(columns) FROM \(quote(plan.entity.name)) t0"
        for j in plan.joins { sql += " " + j }
        var conditions: [String] = []
        var bindings = plan.bindings
        func bind(_ value: StoreValue) -> String {
            bindings.append(value)
            return "$\(bindings.count)"
        }
        if let w = plan.whereSQL { conditions.append(w) }
        if let ids = plan.restrictToIDs { conditions.append(Self.isOneOf("t0.id", bind(Self.idArray(ids)))) }
        if !plan.joinedIDs.isEmpty {
            conditions.append(
                "("
                    + plan.joinedIDs.map { Self.isOneOf("\($0.alias).id", bind(Self.idArray($0.ids))) }
                    .joined(separator: " OR ") + ")")
        }
        if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
        if !plan.orderBy.isEmpty || plan.limit != nil {
            // SQLite's order: NULL before every value going up, after going down.
            let terms = plan.orderBy.map { "\($0.sql) \($0.ascending ? "ASC NULLS FIRST" : "DESC NULLS LAST")" } + ["t0.id ASC"]
            sql += " ORDER BY " + terms.joined(separator: ", ")
        }
        if let limit = plan.limit { sql += " LIMIT \(bind(.integer(Int64(limit))))" }
        if let offset = plan.offset { sql += " OFFSET \(bind(.integer(Int64(offset))))" }
        return (sql, bindings)
    }

    /// IDs as one array parameter, whatever their number.
    static func idArray(_ ids: [Int64]) -> StoreValue { PostgresDialect().idList(ids) }

    /// The condition that `column` is one of the IDs bound at `marker` (see ``PostgresDialect/isOneOf(_:ids:)``).
    static func isOneOf(_ column: String, _ marker: String = "$1") -> String { PostgresDialect().isOneOf(column, ids: marker) }

    static func rowColumns(_ entity: EntityDescription) -> String {
        (["t0.id"] + entity.attributes.map { "t0." + quote($0.name) } + entity.toOnes.map { "t0." + quote($0.name) }
            + ["t0.\(RowVersion.column)"]).joined(separator: ", ")
    }

    static func readRow(_ r: PGResult, _ row: Int, _ entity: EntityDescription) -> StoredRow {
        let n = entity.attributes.count
        var attrs: [StoreValue] = []
        attrs.reserveCapacity(n)
        for i in 0..<n { attrs.append(r.value(row: row, column: i + 1)) }
        var ones: [ObjectID?] = []
        for (j, p) in entity.toOnes.enumerated() {
            let c = n + 1 + j
            ones.append(r.isNull(row: row, column: c) ? nil : ObjectID(entityName: p.target.name, rowID: r.int64(row: row, column: c)))
        }
        return StoredRow(attributes: attrs, toOnes: ones, version: r.int64(row: row, column: n + 1 + ones.count))
    }

    func fetchRows(_ plan: FetchPlan) throws -> [(Int64, StoredRow)] {
        let (sql, bindings) = selectSQL(plan, columns: Self.rowColumns(plan.entity))
        let r = try reading { try $0.query(sql, bindings) }
        Self.countRowRead(server.uri)
        return (0..<r.rowCount).map { (r.int64(row: $0, column: 0), Self.readRow(r, $0, plan.entity)) }
    }

    func fetchKeys(_ plan: FetchPlan) throws -> [(Int64, [StoreValue])] {
        let (sql, bindings) = selectSQL(plan, columns: (["t0.id"] + plan.keyColumns).joined(separator: ", "))
        let r = try reading { try $0.query(sql, bindings) }
        Self.countRowRead(server.uri)
        let n = plan.keyColumns.count
        var result: [(Int64, [StoreValue])] = []
        result.reserveCapacity(r.rowCount)
        for row in 0..<r.rowCount {
            result.append((r.int64(row: row, column: 0), n == 0 ? [] : (1...n).map { r.value(row: row, column: $0) }))
        }
        return result
    }

    func count(_ plan: FetchPlan) throws -> Int {
        var p = plan
        p.orderBy = []
        let (inner, bindings) = selectSQL(p, columns: "t0.id")
        let sql =
            plan.limit == nil && plan.offset == nil
            ? "SELECT count(*)" + inner.dropFirst("SELECT t0.id".count) : "SELECT count(*) FROM (\(inner)) counted"
        guard case .integer(let n)? = try reading({ try $0.scalar(sql, bindings) }) else { return 0 }
        return Int(n)
    }

    func rows(of entity: EntityDescription, ids: [Int64]) throws -> [Int64: StoredRow] {
        guard !ids.isEmpty else { return [:] }
        let sql = "SELECT \(Self.rowColumns(entity)) FROM \(quote(entity.name)) t0 WHERE \(Self.isOneOf("t0.id"))"
        let r = try reading { try $0.query(sql, [Self.idArray(ids)]) }
        Self.countRowRead(server.uri)
        var result: [Int64: StoredRow] = [:]
        for row in 0..<r.rowCount { result[r.int64(row: row, column: 0)] = Self.readRow(r, row, entity) }
        return result
    }

    func members(of p: PropertyDescription, owner: Int64) throws -> [Int64] {
        guard let sql = dialect.membersQuery(p) else { return [] }
        let r = try reading { try $0.query(sql, [.integer(owner)]) }
        return (0..<r.rowCount).map { r.int64(row: $0, column: 0) }
    }

    // MARK: Write transactions

    var isWriting: Bool { connection.isInTransaction || !connection.deferred.isEmpty }

    var deadlineFromNow: UInt64 { DispatchTime.now().uptimeNanoseconds + UInt64(busyTimeoutMilliseconds) * 1_000_000 }

    /// Opens a transaction and takes the namespace's write lock exclusively
    /// (no save writes meanwhile), waiting until `deadline`, then `busy`.
    func beginWriting(until deadline: UInt64) throws {
        try deferBeginning(until: deadline, exclusive: true)
        // Taken now: the caller waits for the lock itself.
        do { try connection.execute("SELECT 1") } catch {
            abandonWriting()
            throw error
        }
    }

    /// A save's latency is mostly its round trips to the server: its BEGIN
    /// and lock go with its first statement (see ``PGConnection/deferred``).
    /// A save holds the write lock shared: saves write side by side, and
    /// wait only for an exclusive holder (see ``PostgresLock``).
    func beginWritingForSave(until deadline: UInt64) throws {
        try deferBeginning(until: deadline, exclusive: false)
    }

    /// Sends BEGIN and the write lock with the next statement.
    func deferBeginning(until deadline: UInt64, exclusive: Bool) throws {
        if isReadOnly { throw StoreError.readOnly(path: path) }
        let now = DispatchTime.now().uptimeNanoseconds
        let wait = max(1, Int64(deadline > now ? (deadline - now) / 1_000_000 : 0))
        connection.sendWithNextStatement([
            PGStatement("BEGIN"), PGStatement(exclusive ? Self.lockSQL : Self.sharedLockSQL, [.text(String(wait)), .integer(lockKey)]),
        ])
    }

    /// The write lock, waiting at most `$1` ms: one prepared statement. The
    /// timeout is set in a subquery, which runs first (a volatile subquery is
    /// not merged into the outer query), and lasts to the transaction's end,
    /// so it bounds the save's row locks and history lock too.
    static let lockSQL = "SELECT pg_advisory_xact_lock($2) FROM (SELECT set_config('lock_timeout', $1, true)) timeout"
    /// As ``lockSQL``, shared.
    static let sharedLockSQL = "SELECT pg_advisory_xact_lock_shared($2) FROM (SELECT set_config('lock_timeout', $1, true)) timeout"

    func abandonWriting() {
        connection.dropDeferred()
        if connection.isInTransaction { try? connection.execute("ROLLBACK") }
    }

    /// A connection of its own holding the write lock, so the container's
    /// other contexts keep reading meanwhile (as SQLite's write transactions do).
    func beginWriteTransaction() throws -> StoreBackend {
        if isReadOnly { throw StoreError.readOnly(path: path) }
        let backend = try PostgresBackend(
            server: server, namespace: namespace, readOnly: false,
            busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        try backend.beginWriting(until: deadlineFromNow)
        backend.inWriteTransaction = true
        return backend
    }

    func endWriteTransaction(commit: Bool) throws {
        precondition(inWriteTransaction, "no write transaction is open")
        defer { inWriteTransaction = false }
        if commit {
            do { try connection.execute("COMMIT") } catch {
                abandonWriting()
                throw error
            }
            announceCommit()
        } else {
            abandonWriting()
        }
    }

    func storeIdentifier() throws -> String? {
        if case .text(let id)? = try reading({ try $0.scalar("SELECT value FROM folio_metadata WHERE key = 'store_identifier'") }) {
            return id
        }
        return nil
    }

    func latestHistoryPosition() throws -> Int64 {
        try reading { try PostgresHistory.latestPosition($0) }
    }

    func makeChangeFeed(reader: String) throws -> StoreChangeFeed? {
        try PostgresChangeFeed(server: server, namespace: namespace, reader: reader, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
    }

    func releaseIdleSession() {
        if pool != nil && !isWriting && !inWriteTransaction { connection.close() }
    }

    func hasBeenSeeded() throws -> Bool {
        try connection.scalar("SELECT 1 FROM folio_metadata WHERE key = 'seeded'") != nil
    }

    func recordSeeded() throws {
        try connection.query("INSERT INTO folio_metadata (key, value) VALUES ('seeded', '1') ON CONFLICT (key) DO NOTHING")
    }
}

extension PostgresBackend {
    /// Notes a statement that read stored rows of the server at `uri`.
    static func countRowRead(_ uri: String) { rowReadCounts.withLock { $0[uri, default: 0] += 1 } }

    /// How many statements this process ran to read stored rows of the server at `uri`.
    package static func rowReads(_ uri: String) -> Int { rowReadCounts.withLock { $0[uri] ?? 0 } }
}
