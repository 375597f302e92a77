import Dispatch
import FolioLocking
import FolioStore

/// What every change feed of this process on one namespace of one server
/// shares: the process's listener (``PostgresListener``), a small pool of
/// working connections, and the history read after a wake. One read after
/// a wake serves every feed: the rows go into a window kept in memory, and
/// a feed's read after a position inside the window costs no round trip. A
/// feed behind the window reads the server itself. Each feed keeps its
/// own reader row (its position holds the history it has not read); their
/// acknowledgements go to the server together, in one transaction at most
/// every ``acknowledgementSpacing``.
///
///     let hub = PostgresFeedHub.shared(server, namespace: "planets", busyTimeoutMilliseconds: 5000)
///     let id = hub.add(reader: author)
final class PostgresFeedHub: Sendable {
    struct Key: Hashable {
        let uri: String
        let namespace: String?
    }

    struct Subscriber {
        let reader: String
        var position: Int64?
        var silenceLimit = HistorySettings.defaultSilenceLimit
        var waking: (queue: DispatchQueue, hear: @Sendable ([String]?) -> Void)?
    }

    /// The history rows read, positions in (start, through], and what
    /// forces the next read to ask the server.
    struct Window {
        /// A history row, with the stored rows its read found for what it changed (nil: none read).
        struct Row {
            var position: Int64
            var author: String
            var changes: ChangeSet
            var values: HeardRows?
            /// How many saves this process had committed when the values were read (see ``State/ownSaves``).
            var valuesAfter: UInt64 = 0
        }
        var rows: [Row] = []
        var start: Int64 = -1
        var through: Int64 = -1
        /// Counts wakes; a read asks the server when it moved since `readAt`.
        var heard = 0, readAt = 0
        var readUptime: UInt64 = 0
    }

    struct State {
        var subscribers: [Int: Subscriber] = [:]
        /// The containers' schema, for reading the rows the changes name (nil: none read).
        var schema: Schema?
        /// Saves this process committed. Rows read before the last of them
        /// are not handed on: one may be older than that save, which its
        /// container would never hear again (its own saves reach it empty).
        var ownSaves: UInt64 = 0
        var nextID = 0
        var window = Window()
        var lastAcknowledgement: UInt64 = 0
        var acknowledgementScheduled = false
        /// An acknowledgement is being written; another was asked for meanwhile.
        var acknowledgementRunning = false, acknowledgementAgain = false
        /// The read from the server under way, left when it ends.
        var readInFlight: DispatchGroup?
        /// How many times a read waited for another's (tests check that the followers never do).
        var readWaits = 0
        /// Whether a pass of wakes to the feeds is queued, and what its wakes
        /// heard (nil: a session began or rows wait past the horizon).
        var wakeQueued = false
        var wakePayloads: [String]? = []
        /// When the reread for rows waiting past the horizon is due (one at a time; uptime, ns).
        var pendingRereadAt: UInt64?
        /// The horizon last read with rows waiting past it, the wait before
        /// reading again and when that wait began (uptime, ns).
        var pendingHorizon: Int64 = -1
        var pendingDelay: UInt64 = 0, pendingSince: UInt64 = 0
        /// The first wait for rows past the horizon and the most it grows to (ns).
        var pendingBackoff = (first: PostgresNotifier.spacing, limit: UInt64(1_000_000_000))
        /// The newest row a read found waiting past the server's horizon,
        /// and when (uptime, ns): kept until a read passes it.
        var waitingRow: (mark: Int64, since: UInt64)?
        /// A feed asked for everything committed (``PostgresFeedHub/read(after:reader:fresh:)``).
        var exactReadAsked = false

        /// Drops the window's oldest rows, down to half of ``windowLimit``,
        /// but only those every feed has read: the rows the read from `from`
        /// brought, and those past the furthest-behind feed's acknowledged
        /// position, stay (up to ``windowHardLimit``). A feed whose position
        /// falls before the window reads the server itself, without the rows
        /// read once for every feed, and each of its containers reads them
        /// all: a burst that one read brought in whole would leave every feed behind it.
        mutating func trimWindow(before from: Int64) {
            let read = min(from, subscribers.values.compactMap(\.position).min() ?? from)
            let unread = window.rows.count - (window.rows.firstIndex { $0.position > read } ?? window.rows.count)
            let keep = min(max(PostgresFeedHub.windowLimit / 2, unread), PostgresFeedHub.windowHardLimit)
            let dropped = window.rows.count - keep
            guard dropped > 0 else { return }
            window.start = window.rows[dropped - 1].position
            window.rows.removeFirst(dropped)
        }

        /// The last read served from the window to a reader that wrote none
        /// of its rows, with what it was served from: every such reader at
        /// the same position is served the same (a process's containers
        /// mostly are), built once.
        var lastServed: (position: Int64, readUptime: UInt64, ownSaves: UInt64, authors: Set<String>, read: HistoryRead)?
        /// How many reads the window served were built (tests check that one is shared).
        var servedBuilt = 0

        /// What the window holds after `position` for `reader` (its own
        /// saves' changes left empty), with the rows read for what the
        /// other changes name; nil when the window does not cover the position.
        mutating func serve(after position: Int64, reader: String) -> HistoryRead? {
            let w = window
            guard w.start >= 0, position >= w.start, position <= w.through else { return nil }
            if let last = lastServed, last.position == position, last.readUptime == w.readUptime, last.ownSaves == ownSaves,
                !last.authors.contains(reader)
            {
                return last.read
            }
            servedBuilt += 1
            var index = w.rows.count
            while index > 0 && w.rows[index - 1].position > position { index -= 1 }
            var rows: [(position: Int64, changes: ChangeSet)] = []
            rows.reserveCapacity(w.rows.count - index)
            var served = Set<ObjectID>(), authors = Set<String>()
            for row in w.rows[index...] {
                authors.insert(row.author)
                rows.append((row.position, row.author == reader ? ChangeSet() : row.changes))
                if row.author != reader && row.values != nil && row.valuesAfter == ownSaves {
                    served.formUnion(row.changes.inserted)
                    served.formUnion(row.changes.updated.keys)
                    served.formUnion(row.changes.deleted)
                }
            }
            let read = HistoryRead(
                rows: rows, trimmed: false, latest: w.through,
                heard: PostgresFeedHub.heard(in: w.rows[index...], served: served, ownSaves: ownSaves))
            if !authors.contains(reader) { lastServed = (position, w.readUptime, ownSaves, authors, read) }
            return read
        }

        /// The `waited` bound of the next read (see
        /// ``PostgresHistory/readHorizonSQL(after:waited:)``): the row noted
        /// waiting once it has waited ``PostgresFeedHub/rowWaitLimit``, every
        /// row for a feed that asked for everything, else none.
        mutating func waitedBound(now: UInt64) -> Int64 {
            if exactReadAsked {
                exactReadAsked = false
                return .max
            }
            guard let row = waitingRow, now &- row.since >= PostgresFeedHub.rowWaitLimit else { return -1 }
            return row.mark
        }

        /// Notes what a read through `horizon` found: the newest row, when it
        /// waits past the horizon, unless an older one noted still waits.
        mutating func noteWaiting(pending: Bool, newest: Int64, horizon: Int64, now: UInt64) {
            guard pending else { return waitingRow = nil }
            if let row = waitingRow, row.mark > horizon { return }
            waitingRow = (newest, now)
        }

        /// When to read again for rows committed past `horizon` (nil: none).
        /// The wait doubles, to ``pendingBackoff``'s limit, each time it ran out
        /// with the horizon where it was: a long transaction elsewhere holds
        /// it, and reading faster finds nothing. Reads between (a wake's) leave it be.
        mutating func pending(_ pending: Bool, horizon: Int64, now: UInt64) -> UInt64? {
            guard pending else {
                pendingHorizon = -1
                return nil
            }
            if horizon != pendingHorizon {
                pendingDelay = pendingBackoff.first
            } else if now &- pendingSince >= pendingDelay {
                pendingDelay = min(2 * pendingDelay, pendingBackoff.limit)
            } else {
                return pendingSince &+ pendingDelay
            }
            pendingHorizon = horizon
            pendingSince = now
            return now &+ pendingDelay
        }
    }

    let key: Key
    let namespace: String?
    let listener: PostgresListener
    let pool: PostgresPool
    private let busyTimeoutMilliseconds: Int32
    let state = LockedValue(State())
    let listening = LockedValue<Int?>(nil)
    /// Where wakes are passed on to the feeds, one pass at a time, and where
    /// the process's followers of this hub's feeds run.
    let wakeQueue = DispatchQueue(label: "folio.postgres.wakes")

    /// How long a row may wait past the server's horizon before a read asks
    /// the lock table whether the namespace's horizon passes it (ns). On a
    /// busy server rows wait past it a moment, always; one that waits
    /// longer is held by a long transaction elsewhere, or by one writing its row.
    static let rowWaitLimit: UInt64 = 10_000_000
    /// Acknowledgements closer together than this go together (ns).
    static let acknowledgementSpacing: UInt64 = 100_000_000
    /// A read not woken for this long asks the server anyway (ns): a fallback poll finds what no wake announced.
    static let staleAfter: UInt64 = 50_000_000
    /// The window is trimmed when it holds more rows than this, to half
    /// of it, keeping rows a feed has still to read up to ``windowHardLimit``.
    static let windowLimit = 20_000
    static let windowHardLimit = 100_000

    private init(server: PostgresServer, key: Key, busyTimeoutMilliseconds: Int32) {
        self.key = key
        namespace = key.namespace
        self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
        listener = PostgresListener.shared(server)
        pool = PostgresPool.shared(server, namespace: key.namespace, readOnly: false, role: "feed")
    }

    private static let hubs = LockedValue<[Key: PostgresFeedHub]>([:])

    /// How many times a read of a hub of the server at `uri` waited for another's read to end.
    static func readWaits(uri: String) -> Int {
        hubs.withLock { $0.filter { $0.key.uri == uri }.map(\.value) }.reduce(0) { $0 + $1.state.withLock(\.readWaits) }
    }

    /// The process's hub for `namespace` on `server`.
    static func shared(_ server: PostgresServer, namespace: String?, busyTimeoutMilliseconds: Int32) -> PostgresFeedHub {
        let key = Key(uri: server.uri, namespace: namespace)
        return hubs.withLock { hubs in
            if let hub = hubs[key] { return hub }
            let hub = PostgresFeedHub(server: server, key: key, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
            hubs[key] = hub
            return hub
        }
    }

    /// A save of this process committed in `namespace`: the hub's next read asks the server.
    static func committed(uri: String, namespace: String?) {
        guard let hub = hubs.withLock({ $0[Key(uri: uri, namespace: namespace)] }) else { return }
        hub.state.withLock { s in
            s.window.heard += 1
            s.ownSaves += 1
        }
    }

    func add(reader: String) -> Int {
        state.withLock { s in
            s.nextID += 1
            s.subscribers[s.nextID] = Subscriber(reader: reader)
            return s.nextID
        }
    }

    /// Removes a feed; the last one lets the listener and the pool go.
    func remove(_ id: Int) {
        let empty = state.withLock { s in
            s.subscribers[id] = nil
            return s.subscribers.isEmpty
        }
        guard empty else { return }
        let gone = Self.hubs.withLock { hubs -> Bool in
            guard state.withLock({ $0.subscribers.isEmpty }), hubs[key] === self else { return false }
            hubs[key] = nil
            return true
        }
        guard gone else { return }
        if let id = listening.withLock({ $0.take() }) { listener.unfollow(id) }
        pool.release()
    }

    /// Hands `hear` each notification of the namespace (nil: a session
    /// ended or began), on `queue`, from now on, and once at once (nil) for the catch-up.
    func startWaking(_ id: Int, on queue: DispatchQueue, _ hear: @escaping @Sendable ([String]?) -> Void) {
        state.withLock { $0.subscribers[id]?.waking = (queue, hear) }
        listening.withLock { current in
            guard current == nil else { return }
            current = listener.follow(channel: PostgresServer.channel(namespace)) { [weak self] payloads in self?.wakeAll(payloads) }
        }
        // The catch-up, whether or not the process's session is new (it may listen for another namespace already).
        queue.async { hear(nil) }
    }

    /// Rows committed past the horizon were found by a read of this
    /// process (a replica's pull): its feeds read again, as if woken by
    /// a save of another (nil), since those rows were announced already.
    /// It joins the hub's wait for rows past `horizon` (which doubles while
    /// the horizon stays), rather than reading again at the first step each time.
    static func pendingFound(uri: String, namespace: String?, horizon: Int64) {
        guard let hub = hubs.withLock({ $0[Key(uri: uri, namespace: namespace)] }) else { return }
        let due = hub.state.withLock { $0.pending(true, horizon: horizon, now: DispatchTime.now().uptimeNanoseconds) }
        if let due { hub.rereadPending(at: due) }
    }

    /// Makes the next read ask the server and wakes every feed with what
    /// was heard (nil: a new session or a reread), after reading the server
    /// once for them all on the hub's queue: each feed then reads the
    /// window, none waits on a thread of its own for another's round trip.
    /// Wakes that come before a queued pass begins join it.
    func wakeAll(_ payloads: [String]?) {
        let first = state.withLock { s -> Bool in
            s.window.heard += 1
            if let payloads, let heard = s.wakePayloads { s.wakePayloads = heard + payloads } else { s.wakePayloads = nil }
            defer { s.wakeQueued = true }
            return !s.wakeQueued
        }
        if first { wakeQueue.async { [self] in passOnWakes() } }
    }

    private func passOnWakes() {
        let (payloads, wakings) = state.withLock { s in
            s.wakeQueued = false
            defer { s.wakePayloads = [] }
            return (s.wakePayloads, s.subscribers.values.compactMap(\.waking))
        }
        // A feed that starts waking meanwhile has a catch-up wake of its own (see startWaking).
        guard !wakings.isEmpty else { return }
        readAhead()
        for (queue, hear) in wakings { queue.async { hear(payloads) } }
    }

    /// Runs `body` on a working connection, then mends the listener.
    func using<T>(_ body: (PGConnection) throws -> T) throws -> T {
        defer { mendListener() }
        return try pool.with(body)
    }

    /// Opens the listening session again soon if it ended (once this process listens); never waits for it.
    func mendListener() {
        if listening.withLock({ $0 != nil }) { listener.mend() }
    }

    func register(_ id: Int) throws -> Int64 {
        guard let reader = state.withLock({ $0.subscribers[id]?.reader }) else { return 0 }
        let position = try using {
            try PostgresHistory.register(
                $0, reader: reader, lockKey: PostgresLock.key(namespace ?? ""), waitMilliseconds: busyTimeoutMilliseconds)
        }
        state.withLock { $0.subscribers[id]?.position = position }
        return position
    }

    func unregister(_ id: Int) {
        guard
            let reader = state.withLock({ s -> String? in
                defer { s.subscribers[id]?.position = nil }
                return s.subscribers[id]?.reader
            })
        else { return }
        _ = try? using { try $0.query("DELETE FROM folio_readers WHERE reader = $1", [.text(reader)]) }
    }
}
