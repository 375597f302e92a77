import Dispatch
import FolioLocking
import FolioStore

/// Announces this process's saves of one namespace, after their commits,
/// at most once every ``spacing``. A save's NOTIFY goes in a transaction
/// of its own: the commit of a notifying transaction takes a lock for the
/// whole cluster (a NOTIFY inside each save serialised every save's
/// commit), and a listener woken by a save's own commit finds its history
/// row one past the newest ended transaction, not yet readable (see
/// ``PostgresHistory``), where the NOTIFY's own transaction, ending after
/// it, makes the row readable when the wake comes. A save that may
/// announce itself (none did in the last spacing) sends its
/// ``announcement(author:)`` right after its COMMIT, in the same round
/// trip; one that may not owes it, and one NOTIFY goes out for all that
/// owe at the end of the spacing, on a pooled connection.
///
///     let notifier = PostgresNotifier.shared(server, namespace: "planets")
///     let announcement = notifier.claim() ? notifier.announcement(author: author) : nil
final class PostgresNotifier: Sendable {
    /// The least time between two notifications of a process's saves (ns).
    static let spacing: UInt64 = 5_000_000
    /// A pool held for owed notifications is let go after this long without one (ns).
    static let idleRelease: UInt64 = 1_000_000_000

    private struct State {
        var lastSent: UInt64 = 0
        var owed = false
        /// The author of every save owed, named in the payload so that its own feeds skip the wake; nil when several owe.
        var owedAuthor: String?
        var sendScheduled = false
        var lastOwed: UInt64 = 0
        var pool: PostgresPool?
        var releaseScheduled = false
    }

    private let server: PostgresServer
    private let namespace: String?
    private let state = LockedValue(State())

    private init(server: PostgresServer, namespace: String?) {
        self.server = server
        self.namespace = namespace
    }

    private static let all = LockedValue<[String: PostgresNotifier]>([:])

    /// The process's notifier for `namespace` on `server`.
    static func shared(_ server: PostgresServer, namespace: String?) -> PostgresNotifier {
        let key = server.uri + "\u{0}" + (namespace ?? "")
        return all.withLock { all in
            if let notifier = all[key] { return notifier }
            let notifier = PostgresNotifier(server: server, namespace: namespace)
            all[key] = notifier
            return notifier
        }
    }

    /// Whether the save about to commit announces itself (none did in the last spacing).
    func claim() -> Bool {
        let now = DispatchTime.now().uptimeNanoseconds
        return state.withLock { s in
            guard now &- s.lastSent >= Self.spacing else { return false }
            s.lastSent = now
            return true
        }
    }

    /// The statement announcing saves of `author` (nil: of several), run
    /// after their COMMITs: "position author", as feeds read it (no feed
    /// uses the position). The transaction ID makes its transaction end
    /// after the saves' (NOTIFY takes one too, but that is the server's detail).
    func announcement(author: String?) -> PGStatement {
        PGStatement(
            "SELECT pg_notify($1, $2), pg_current_xact_id()",
            [.text(PostgresServer.channel(namespace)), .text(author.map { "0 " + $0 } ?? "0")])
    }

    /// A save of `author` committed unannounced: one NOTIFY goes out for it,
    /// at once or at the end of the spacing, with every other save owed by then.
    func owe(author: String) {
        let now = DispatchTime.now().uptimeNanoseconds
        let at = state.withLock { s -> UInt64? in
            s.owedAuthor = !s.owed || s.owedAuthor == author ? author : nil
            s.owed = true
            s.lastOwed = now
            if s.pool == nil { s.pool = PostgresPool.shared(server, namespace: namespace, readOnly: false, role: "feed") }
            guard !s.sendScheduled else { return nil }
            s.sendScheduled = true
            return max(now, s.lastSent &+ Self.spacing)
        }
        guard let at else { return }
        DispatchQueue.global().asyncAfter(deadline: DispatchTime(uptimeNanoseconds: at)) { [self] in send() }
    }

    private func send() {
        let owed = state.withLock { s -> (PostgresPool, String?)? in
            s.sendScheduled = false
            guard s.owed, let pool = s.pool else { return nil }
            defer {
                s.owed = false
                s.owedAuthor = nil
                s.lastSent = DispatchTime.now().uptimeNanoseconds
            }
            return (pool, s.owedAuthor)
        }
        guard let (pool, author) = owed else { return }
        let statement = announcement(author: author)
        // A failure is left to the followers' fallback poll and the listener's catch-up.
        _ = try? pool.with { try $0.query(statement.sql, statement.values) }
        scheduleRelease()
    }

    private func scheduleRelease() {
        let due = state.withLock { s -> Bool in
            guard !s.releaseScheduled else { return false }
            s.releaseScheduled = true
            return true
        }
        guard due else { return }
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(Self.idleRelease))) { [self] in
            let idle = state.withLock { s -> PostgresPool? in
                s.releaseScheduled = false
                guard DispatchTime.now().uptimeNanoseconds &- s.lastOwed >= Self.idleRelease, !s.sendScheduled else { return nil }
                defer { s.pool = nil }
                return s.pool
            }
            if let idle { idle.release() } else if state.withLock({ $0.pool != nil }) { scheduleRelease() }
        }
    }
}
