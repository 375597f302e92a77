import Dispatch

extension PostgresFeedHub {
    /// Rereads are due on this grid (ns): those landing in one step go
    /// together, so a burst of wakes schedules a few timers, not hundreds.
    static let rereadGrid = PostgresNotifier.spacing / 2

    /// Wakes every feed for a read after each of `delays` (ns), as a reread
    /// (`[]`: nothing heard) or as a new session (nil: every feed reads).
    /// Each is due at its time rounded up to the grid, however many are
    /// scheduled later: a later one never stands in for an earlier one.
    func rereadSoon(after delays: [UInt64], payloads: [String]? = []) {
        let now = DispatchTime.now().uptimeNanoseconds
        for delay in delays { schedule(at: now &+ delay, asSession: payloads == nil, forPending: false) }
    }

    /// Wakes every feed (as a new session) at `at` for rows committed past
    /// the horizon: one such reread at a time, the earliest asked for. One
    /// due sooner stands in for it (its read asks again while rows wait).
    func rereadPending(at: UInt64) {
        schedule(at: at, asSession: true, forPending: true)
    }

    private func schedule(at: UInt64, asSession: Bool, forPending: Bool) {
        let due = (at / Self.rereadGrid + (at % Self.rereadGrid == 0 ? 0 : 1)) * Self.rereadGrid
        let new = state.withLock { s -> Bool in
            guard !s.subscribers.isEmpty else { return false }
            if forPending {
                if let scheduled = s.pendingRereadAt, scheduled <= due { return false }
                s.pendingRereadAt = due
            }
            if let scheduled = s.rereads[due] {
                s.rereads[due] = scheduled || asSession
                return false
            }
            s.rereads[due] = asSession
            return true
        }
        guard new else { return }
        DispatchQueue.global().asyncAfter(deadline: DispatchTime(uptimeNanoseconds: due)) { [weak self] in self?.reread(due) }
    }

    private func reread(_ due: UInt64) {
        let asSession = state.withLock { s -> Bool? in
            if s.pendingRereadAt == due { s.pendingRereadAt = nil }
            return s.rereads.removeValue(forKey: due)
        }
        guard let asSession else { return }
        wakeAll(asSession ? nil : [])
    }
}
