import Dispatch
import FolioLocking
import FolioStore

/// Coalesces this process's NOTIFYs of one namespace. The commit of a
/// notifying transaction takes a lock for the whole cluster, so a NOTIFY
/// per save serialises every save's commit. A save notifies only when none
/// of this process's saves of the namespace did in the last ``spacing``;
/// one that did not owes its announcement, and one NOTIFY goes out for all
/// that owe at the end of the spacing, after their commits, on a pooled
/// connection. Each feed hub reads again ``spacing`` and twice that after
/// every wake, so nothing waits for the owed NOTIFY's wake either.
///
///     let notifying = PostgresNotifier.shared(server, namespace: "planets").claim()
final class PostgresNotifier: Sendable {
    /// The least time between two notifications of a process's saves (ns).
    static let spacing: UInt64 = 5_000_000
    /// A pool held for owed notifications is let go after this long without one (ns).
    static let idleRelease: UInt64 = 1_000_000_000

    private struct State {
        var lastClaim: UInt64 = 0
        var owed = false
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

    /// Whether the save about to commit notifies (none did in the last spacing).
    func claim() -> Bool {
        let now = DispatchTime.now().uptimeNanoseconds
        return state.withLock { s in
            guard now &- s.lastClaim >= Self.spacing else { return false }
            s.lastClaim = now
            return true
        }
    }

    /// A save committed without notifying: one NOTIFY goes out at the end of the spacing.
    func owe() {
        let now = DispatchTime.now().uptimeNanoseconds
        let at = state.withLock { s -> UInt64? in
            s.owed = true
            s.lastOwed = now
            if s.pool == nil { s.pool = PostgresPool.shared(server, namespace: namespace, readOnly: false, role: "feed") }
            guard !s.sendScheduled else { return nil }
            s.sendScheduled = true
            return max(now, s.lastClaim &+ Self.spacing)
        }
        guard let at else { return }
        DispatchQueue.global().asyncAfter(deadline: DispatchTime(uptimeNanoseconds: at)) { [self] in send() }
    }

    private func send() {
        let pool = state.withLock { s -> PostgresPool? in
            s.sendScheduled = false
            guard s.owed else { return nil }
            s.owed = false
            s.lastClaim = DispatchTime.now().uptimeNanoseconds
            return s.pool
        }
        guard let pool else { return }
        // The payload names no author: every feed reads. A failure is left to the hubs' rereads and fallback poll.
        _ = try? pool.with { try $0.query("SELECT pg_notify($1, '0')", [.text(PostgresServer.channel(namespace))]) }
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
