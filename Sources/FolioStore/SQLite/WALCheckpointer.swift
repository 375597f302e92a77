import CSQLite
import Dispatch
import Foundation
import Synchronization

/// Keeps the write-ahead log short without making a save pay for it.
///
/// SQLite's automatic checkpoint runs inside the `COMMIT` that pushes the log
/// past 1,000 pages, so one save in a few hundred copied pages into the
/// database file and synced it (milliseconds at a million rows). Here the
/// store's connection has automatic checkpoints off; its commit hook only
/// notes the log's length and, past ``passivePages``, asks a serial queue to run
/// a PASSIVE checkpoint on a connection of its own (it never takes the
/// writer lock, so saves go on meanwhile). Once a checkpoint has copied the
/// whole log, the next commit restarts it from the top and cuts its file back
/// to `journal_size_limit`, so the log stays as short as with SQLite's own
/// checkpoints. ``close(_:)`` truncates the log once more.
///
///     let checkpointer = WALCheckpointer(path: path, health: connection.health, busyTimeoutMilliseconds: 5000)
///     checkpointer.attach(to: connection)   // after `PRAGMA journal_mode=WAL`
package final class WALCheckpointer: @unchecked Sendable {  // mutable state is @QueueConfined to `queue`
    /// The log length (pages, 16 MB at 4 KB) that schedules a PASSIVE checkpoint.
    /// SQLite's default is 1,000; a background checkpoint still shares the disk
    /// with the saves it overlaps, so fewer, larger ones disturb fewer saves.
    static let passivePages: Int32 = 4000
    /// The log file's size after a restart, at most (16 MB, one checkpoint's worth).
    static let sizeLimitBytes = 16 << 20

    let path: String
    /// The store's health: a damaged file is never checkpointed.
    private let health: StoreHealth
    private let busyTimeoutMilliseconds: Int32
    private let queue: DispatchQueue
    private let scheduled = Atomic(false)
    @QueueConfined private var connection: SQLiteConnection?
    /// How many checkpoints ran, for tests.
    @QueueConfined private var completed: Int

    init(path: String, health: StoreHealth, busyTimeoutMilliseconds: Int32) {
        self.path = path
        self.health = health
        self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
        let queue = DispatchQueue(label: "folio.store.checkpoint", qos: .utility)
        self.queue = queue
        _connection = QueueConfined(wrappedValue: nil, on: queue)
        _completed = QueueConfined(wrappedValue: 0, on: queue)
    }

    /// A checkpointer watching `connection`, another writer of a store
    /// file (a replica's sync), whose commits would otherwise run SQLite's
    /// own checkpoints inside them. ``close(_:)`` it before the connection goes.
    ///
    ///     let checkpointer = try WALCheckpointer.attached(to: connection, busyTimeoutMilliseconds: 5000)
    package static func attached(to connection: SQLiteConnection, busyTimeoutMilliseconds: Int32) throws -> WALCheckpointer {
        let checkpointer = WALCheckpointer(
            path: connection.path, health: connection.health, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        try checkpointer.attach(to: connection)
        return checkpointer
    }

    /// Turns off `store`'s automatic checkpoints and watches its commits.
    /// The checkpointer must outlive the hook: ``detach(from:)`` before releasing it.
    func attach(to store: SQLiteConnection) throws {
        try store.execute("PRAGMA wal_autocheckpoint=0")
        // A log that grew past this during one big save is cut back when it restarts.
        try store.execute("PRAGMA journal_size_limit=\(Self.sizeLimitBytes)")
        sqlite3_wal_hook(
            store.db,
            { context, _, _, pages in
                guard let context else { return SQLITE_OK }
                Unmanaged<WALCheckpointer>.fromOpaque(context).takeUnretainedValue().committed(logPages: pages)
                return SQLITE_OK
            }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Stops watching `store`'s commits.
    func detach(from store: SQLiteConnection) {
        sqlite3_wal_hook(store.db, nil, nil)
    }

    /// Called inside each commit (under the store's lock): only schedules work.
    private func committed(logPages pages: Int32) {
        guard pages >= Self.passivePages else { return }
        guard scheduled.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else { return }
        queue.async { [self] in
            scheduled.store(false, ordering: .releasing)
            checkpoint()
        }
    }

    /// Runs one checkpoint on the checkpointer's own connection (on `queue`).
    private func checkpoint() {
        guard health.damage == nil else { return }
        do {
            if connection == nil {
                let c = try SQLiteConnection(path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds, health: health)
                // Reading once puts the new connection in WAL mode before it checkpoints.
                _ = try c.rows("SELECT count(*) FROM sqlite_master")
                // Checkpoints never wait for a lock: a busy one is simply tried again later.
                sqlite3_busy_timeout(c.db, 0)
                connection = c
            }
        } catch {
            return  // The next long log tries again.
        }
        guard let connection else { return }
        // A reader on an old snapshot only means the log stays longer for now.
        var log: Int32 = 0, done: Int32 = 0
        let rc = sqlite3_wal_checkpoint_v2(connection.db, nil, SQLITE_CHECKPOINT_PASSIVE, &log, &done)
        if rc == SQLITE_OK && log > 0 && done == log {
            // Everything was copied, but saves that came meanwhile appended to
            // the log, so the next one would not start it over; RESTART copies
            // those few frames and makes the next save begin the log again.
            // It needs the writer lock for that moment: when a save holds it,
            // it gives up at once and a later checkpoint tries again.
            _ = sqlite3_wal_checkpoint_v2(connection.db, nil, SQLITE_CHECKPOINT_RESTART, nil, nil)
        }
        completed += 1
    }

    /// Waits for a scheduled checkpoint, closes the checkpointer's connection,
    /// then truncates the log through `store` without waiting for other
    /// processes' readers (their connections keep the log until they close).
    package func close(_ store: SQLiteConnection) {
        detach(from: store)
        queue.sync { connection = nil }
        sqlite3_busy_timeout(store.db, 0)
        _ = sqlite3_wal_checkpoint_v2(store.db, nil, SQLITE_CHECKPOINT_TRUNCATE, nil, nil)
    }

    /// Checkpoints scheduled so far have finished when this returns.
    func waitForScheduled() -> Int {
        queue.sync { completed }
    }
}
