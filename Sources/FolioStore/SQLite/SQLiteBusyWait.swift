import CSQLite
import Dispatch
import Glibc

/// How long a connection waits for another connection's lock, measured on
/// the monotonic clock.
///
/// SQLite's own busy timeout adds up the sleeps it asked for, not the time
/// that passed: on a loaded machine every sleep runs long, and each lock a
/// statement needs starts its own allowance, so a "5 s" wait took 9.5–20 s.
/// This handler gives up when the clock reaches the deadline: the one an
/// operation set with ``SQLiteConnection/withDeadline(_:_:)`` (a save counts
/// every wait it makes against one budget), else the timeout from the first
/// busy answer of this lock.
///
///     let wait = SQLiteBusyWait(timeoutNanoseconds: 5_000_000_000)
///     wait.install(on: db)
final class SQLiteBusyWait {
    let timeoutNanoseconds: UInt64
    /// Set by the operation in progress; used only by the thread using the connection.
    var deadline: UInt64?
    private var lockStart: UInt64 = 0

    init(timeoutNanoseconds: UInt64) {
        self.timeoutNanoseconds = timeoutNanoseconds
    }

    /// Makes `db` call this handler when a lock is busy. The handler must outlive `db`.
    func install(on db: OpaquePointer) {
        sqlite3_busy_handler(
            db,
            { context, count in
                guard let context else { return 0 }
                return Unmanaged<SQLiteBusyWait>.fromOpaque(context).takeUnretainedValue().retry(count) ? 1 : 0
            }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Sleeps a little and says to try again, or says to give up at the deadline.
    private func retry(_ count: Int32) -> Bool {
        let now = DispatchTime.now().uptimeNanoseconds
        if count == 0 { lockStart = now }
        let end = deadline ?? lockStart &+ timeoutNanoseconds
        guard now < end else { return false }
        // Short sleeps first (most locks are held for a commit's length), then 5 ms.
        let step: UInt64 = count < 20 ? 500_000 : 5_000_000
        usleep(useconds_t(min(step, end - now) / 1000))
        return true
    }
}

extension SQLiteConnection {
    /// Runs `body` with every lock wait inside it ending by `deadline`
    /// (`DispatchTime.now().uptimeNanoseconds` scale).
    ///
    ///     try connection.withDeadline(now + 1_000_000_000) { try connection.execute("BEGIN IMMEDIATE") }
    package func withDeadline<T>(_ deadline: UInt64, _ body: () throws -> T) rethrows -> T {
        let outer = busyWait.deadline
        busyWait.deadline = min(deadline, outer ?? .max)
        defer { busyWait.deadline = outer }
        return try body()
    }

    /// The deadline for an operation starting now under this connection's timeout.
    package var deadlineFromNow: UInt64 { DispatchTime.now().uptimeNanoseconds &+ busyWait.timeoutNanoseconds }

    /// Whether a transaction is open on this connection.
    package var isInTransaction: Bool { sqlite3_get_autocommit(db) == 0 }
}
