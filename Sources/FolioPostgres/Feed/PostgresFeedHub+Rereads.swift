import Dispatch

extension PostgresFeedHub {
    /// Wakes every feed (as a new session) at `at` (uptime, ns) for rows
    /// committed past the horizon: one such reread at a time, the earliest
    /// asked for. One due sooner stands in for a later one (its read asks
    /// again while rows wait); a later one never delays a sooner one.
    func rereadPending(at: UInt64) {
        let new = state.withLock { s -> Bool in
            guard !s.subscribers.isEmpty else { return false }
            if let scheduled = s.pendingRereadAt, scheduled <= at { return false }
            s.pendingRereadAt = at
            return true
        }
        guard new else { return }
        DispatchQueue.global().asyncAfter(deadline: DispatchTime(uptimeNanoseconds: at)) { [weak self] in self?.reread(at) }
    }

    private func reread(_ due: UInt64) {
        let current = state.withLock { s -> Bool in
            guard s.pendingRereadAt == due else { return false }
            s.pendingRereadAt = nil
            return true
        }
        if current { wakeAll(nil) }
    }
}
