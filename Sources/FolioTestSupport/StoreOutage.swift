import CSQLite
import FolioStore

/// A store on one backend that can be made to stop answering, for tests of
/// what a failed save leaves behind: on PostgreSQL a database on a server of
/// its own, which ``begin()`` stops and ``end()`` starts again; on SQLite a
/// file whose write lock another connection takes and releases (reads still
/// answer; a save fails once its container's busy timeout has passed).
///
/// Starting and stopping a server waits for `pg_ctl`, on a thread of its own
/// (``BlockingWork``), so the main actor stays free for other tests.
///
///     let outage = try await StoreOutage(.postgreSQL)
///     let container = try PersistentContainer(schema: schema, store: outage.store.description, busyTimeout: 0.5)
///     try await outage.begin()   // saves fail from here
///     try await outage.end()     // the store answers again
@MainActor
public final class StoreOutage {
    /// The store to open.
    public let store: TestStore
    private let cluster: PostgresCluster?
    private var holder: OpaquePointer?
    private var down = false

    public init(_ backend: TestBackend) async throws {
        switch backend {
        case .sqlite:
            cluster = nil
            store = try await backend.makeStore()
        case .postgreSQL:
            let cluster = try await PostgresCluster.started()
            self.cluster = cluster
            store = TestStore(description: .postgreSQL(try await cluster.makeDatabase()), address: "", directory: nil)
        }
    }

    isolated deinit {
        releaseLock()
        cluster?.destroy()
    }

    /// Stops the server, or takes the file's write lock and keeps it.
    public func begin() async throws {
        guard !down else { return }
        if let cluster {
            try await cluster.stop()
        } else {
            guard sqlite3_open(store.address, &holder) == SQLITE_OK,
                sqlite3_exec(holder, "BEGIN IMMEDIATE", nil, nil, nil) == SQLITE_OK
            else {
                let message = holder.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
                sqlite3_close(holder)
                holder = nil
                throw StoreError.cannotOpen(path: store.address, message: "the write lock could not be taken: \(message)")
            }
        }
        down = true
    }

    /// Starts the server again, or lets the write lock go.
    public func end() async throws {
        guard down else { return }
        down = false
        if let cluster {
            try await cluster.start()
        } else {
            releaseLock()
        }
    }

    private func releaseLock() {
        guard let holder else { return }
        sqlite3_exec(holder, "ROLLBACK", nil, nil, nil)
        sqlite3_close(holder)
        self.holder = nil
    }
}
