import Dispatch
import FolioStore

extension PostgresFeedHub {
    /// What was saved after `position` up to the horizon (see
    /// ``PostgresHistory``), for `reader` (its own saves' changes
    /// left empty): from the window when it covers the position, read
    /// anew from the server first if a wake or a save of this process came
    /// since the last read, the last read is stale, or `fresh` asks for it
    /// (then through everything committed: see ``State/waitedBound(now:)``);
    /// else from the server.
    func read(after position: Int64, reader: String, fresh: Bool = false) throws -> HistoryRead {
        // A listening session opened again wakes every feed for its catch-up read (this one too).
        mendListener()
        if fresh {
            state.withLock {
                $0.window.heard += 1
                $0.exactReadAsked = true
            }
        }
        try refreshIfNeeded(covering: position)
        let served = state.withLock { $0.serve(after: position, reader: reader) }
        if let served {
            return served
        }
        return try using { try PostgresHistory.read($0, after: position, excludingAuthor: reader, store: key) }
    }

    /// Reads the server's new rows into the window before the feeds wake,
    /// once it has begun (the first read starts it where the furthest-behind
    /// feed is). A failure is left to the feeds' own reads, which report it.
    func readAhead() {
        let through = state.withLock { $0.window.start < 0 ? nil : $0.window.through }
        guard let through else { return }
        try? refreshIfNeeded(covering: through)
    }

    /// Reads the server's new rows into the window when a wake came since
    /// the last read, the last read is stale, or `position` is past it. One
    /// read at a time: a feed that finds one under way waits for it to end
    /// (asleep, not spinning on a lock held across a round trip), then looks again.
    private func refreshIfNeeded(covering position: Int64) throws {
        enum Step {
            case done
            case wait(DispatchGroup)
            case read(DispatchGroup, from: Int64, heard: Int, waited: Int64)
        }
        func needed(_ w: Window) -> Bool {
            let stale = DispatchTime.now().uptimeNanoseconds &- w.readUptime > Self.staleAfter
            return w.start < 0 || position > w.through || w.heard != w.readAt || stale
        }
        while true {
            let step = state.withLock { s -> Step in
                if let flight = s.readInFlight {
                    s.readWaits += 1
                    return .wait(flight)
                }
                guard needed(s.window) else { return .done }
                let flight = DispatchGroup()
                flight.enter()
                s.readInFlight = flight
                // The first window starts where the furthest-behind feed is, so that every feed reads from it.
                let behind = s.subscribers.values.compactMap(\.position).min() ?? position
                return .read(
                    flight, from: s.window.start < 0 ? min(position, behind) : s.window.through, heard: s.window.heard,
                    waited: s.waitedBound(now: DispatchTime.now().uptimeNanoseconds))
            }
            switch step {
            case .done:
                return
            case .wait(let flight):
                flight.wait()
            case .read(let flight, let from, let heard, let waited):
                defer {
                    state.withLock { $0.readInFlight = nil }
                    flight.leave()
                }
                let read = try using { try PostgresHistory.readAll($0, after: from, waited: waited) }
                // The rows these changes name, once for every feed of the process. A save of this process
                // committed before this count is in them; one after it makes them unfit to hand on.
                let ownSaves = state.withLock { $0.ownSaves }
                let values = read.trimmed ? nil : readRows(namedBy: read.rows)
                let pendingDue = state.withLock { s -> UInt64? in
                    if s.window.start < 0 || read.trimmed {
                        s.window.rows = []
                        s.window.start = read.trimmed ? read.latest : from
                    }
                    s.window.rows += read.rows.map {
                        Window.Row(position: $0.position, author: $0.author, changes: $0.changes, values: values, valuesAfter: ownSaves)
                    }
                    s.window.through = max(read.latest, from)
                    if s.window.rows.count > Self.windowLimit { s.trimWindow(before: from) }
                    s.window.readAt = heard
                    s.window.readUptime = DispatchTime.now().uptimeNanoseconds
                    s.noteWaiting(pending: read.pending, newest: read.newest, horizon: read.latest, now: s.window.readUptime)
                    return s.pending(read.pending, horizon: read.latest, now: s.window.readUptime)
                }
                // Committed rows wait past the horizon: read again soon, whether or not a wake comes.
                if let pendingDue { rereadPending(at: pendingDue) }
                return
            }
        }
    }

    /// Notes `position` for a feed and records every feed's position in the
    /// store, in one transaction, unless one went less than the spacing ago
    /// (then it goes at the end of the spacing). Never waits for another
    /// writer: busy fails at once.
    func acknowledge(_ id: Int, position: Int64, silenceLimit: Double) throws {
        let due = state.withLock { s -> Bool in
            s.subscribers[id]?.position = position
            s.subscribers[id]?.silenceLimit = silenceLimit
            let now = DispatchTime.now().uptimeNanoseconds
            return now &- s.lastAcknowledgement >= Self.acknowledgementSpacing
        }
        mendListener()
        if due { try acknowledgeAll() } else { scheduleAcknowledgement() }
    }

    /// Writes every feed's position at the end of the spacing, unless that is scheduled already.
    private func scheduleAcknowledgement() {
        let at = state.withLock { s -> UInt64? in
            guard !s.acknowledgementScheduled else { return nil }
            s.acknowledgementScheduled = true
            return s.lastAcknowledgement &+ Self.acknowledgementSpacing
        }
        guard let at else { return }
        DispatchQueue.global().asyncAfter(deadline: DispatchTime(uptimeNanoseconds: at)) { [weak self] in
            guard let self else { return }
            state.withLock { $0.acknowledgementScheduled = false }
            try? acknowledgeAll()
        }
    }

    private func acknowledgeAll() throws {
        // One at a time; one asked for meanwhile (its position noted after this one read them) follows, spaced.
        let positions = state.withLock { s -> [PostgresHistory.Acknowledgement]? in
            guard !s.acknowledgementRunning else {
                s.acknowledgementAgain = true
                return nil
            }
            s.acknowledgementRunning = true
            s.acknowledgementAgain = false
            s.lastAcknowledgement = DispatchTime.now().uptimeNanoseconds
            return s.subscribers.values.compactMap { sub in
                sub.position.map { PostgresHistory.Acknowledgement(reader: sub.reader, position: $0, silence: sub.silenceLimit) }
            }
        }
        guard let positions else { return }
        defer {
            let again = state.withLock { s in
                s.acknowledgementRunning = false
                return s.acknowledgementAgain
            }
            if again { scheduleAcknowledgement() }
        }
        guard !positions.isEmpty else { return }
        try using { try PostgresHistory.acknowledge($0, readers: positions) }
    }
}
