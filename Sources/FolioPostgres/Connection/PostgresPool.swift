import Dispatch
import FolioLocking
import FolioStore
import Synchronization

/// The working connections of one process to one namespace of one server,
/// shared by every container there: a read outside a write transaction,
/// and a change feed's statements, borrow one for the statement and give
/// it back. At most ``capacity`` are open; a caller finding all of them
/// busy waits for one. They close when the last backend and feed using the
/// pool are gone.
///
///     let pool = PostgresPool.shared(server, namespace: "planets", readOnly: false)
///     let count = try pool.with { try $0.scalar("SELECT count(*) FROM folio_history") }
final class PostgresPool: Sendable {
    struct Key: Hashable {
        let uri: String
        let namespace: String?
        let readOnly: Bool
        /// Added to the connections' application name ("feed": `… (feed)`), so pg_stat_activity tells them apart.
        let role: String?
    }

    let key: Key
    private let server: PostgresServer
    /// Connections not lent out; each is used by one borrower at a time.
    private let idle = LockedValue<[PGConnection]>([])
    private let permits: DispatchSemaphore
    /// How many connections one pool opens at most.
    static let capacity = 4

    private init(server: PostgresServer, key: Key) {
        self.server = server
        self.key = key
        permits = DispatchSemaphore(value: Self.capacity)
    }

    /// Pools by key, each kept while a holder (a backend, a feed hub) holds it.
    private static let pools = LockedValue<[Key: (pool: PostgresPool, holders: Int)]>([:])

    /// The process's pool for `namespace` on `server`; give it back with ``release()``.
    static func shared(_ server: PostgresServer, namespace: String?, readOnly: Bool, role: String? = nil) -> PostgresPool {
        let key = Key(uri: server.uri, namespace: namespace, readOnly: readOnly, role: role)
        return pools.withLock { pools in
            let entry = pools[key] ?? (PostgresPool(server: server, key: key), 0)
            pools[key] = (entry.pool, entry.holders + 1)
            return entry.pool
        }
    }

    /// One holder is done; the last closes the connections.
    func release() {
        let last = Self.pools.withLock { pools -> Bool in
            guard let entry = pools[key], entry.pool === self else { return false }
            if entry.holders > 1 {
                pools[key] = (self, entry.holders - 1)
                return false
            }
            pools[key] = nil
            return true
        }
        if last {
            idle.withLock {
                for c in $0 { c.close() }; $0 = []
            }
        }
    }

    private func open() throws -> PGConnection {
        guard let role = key.role else { return try server.openConnection(namespace: key.namespace, readOnly: key.readOnly) }
        return try server.openConnection(namespace: key.namespace, readOnly: key.readOnly) { c in
            try c.execute("SELECT set_config('application_name', current_setting('application_name') || ' (\(role))', false)")
        }
    }

    /// Runs `body` on a connection of the pool (waiting for one while all
    /// are lent). A connection whose session broke reconnects on its next
    /// statement; one left inside a transaction is rolled back first.
    func with<T>(_ body: (PGConnection) throws -> T) throws -> T {
        permits.wait()
        defer { permits.signal() }
        let connection = try idle.withLock { $0.popLast() } ?? open()
        // A session the server ended while the connection idled is found now, so the statement opens a new one
        // (the first read may take only the server's farewell, the second meets the closed socket).
        if connection.drainNotifications() != nil { _ = connection.drainNotifications() }
        defer {
            if connection.isInTransaction { try? connection.execute("ROLLBACK") }
            connection.dropDeferred()
            idle.withLock { $0.append(connection) }
        }
        return try body(connection)
    }
}
