import Dispatch
import Synchronization

/// Follows other connections' saves: on a queue of its own (run on one the
/// feed shares, if it has one: ``StoreChangeFeed/followerTarget``), it reads the
/// store's history after its position whenever the change feed wakes it
/// (and on a slow fallback poll), merges each read's rows into one change
/// set and hands it on. A read that finds its history trimmed hands on a
/// reload instead. Nothing here runs on, or waits for, the main actor.
///
/// Its position in the store is recorded (acknowledged) after reads, at
/// most every 100 ms, and at least every heartbeat (see ``HistorySettings``)
/// so that others know it is alive; an acknowledgement never waits for
/// another writer, it is simply tried again later.
///
///     let follower = HistoryFollower(feed: feed, position: start) { changes, heard in broadcast(changes, heard) }
///     follower.start(fallbackInterval: 1)
final class HistoryFollower: @unchecked Sendable {  // mutable state is @QueueConfined to `queue`
    private let queue: DispatchQueue
    private let feed: StoreChangeFeed
    private let deliver: @Sendable (ChangeSet, HeardRows?) -> Void
    @QueueConfined private var position: Int64
    /// The position last recorded in the store.
    @QueueConfined private var acknowledged: Int64
    @QueueConfined private var lastAttempt: UInt64
    @QueueConfined private var lastSuccess: UInt64
    @QueueConfined private var acknowledgementScheduled: Bool
    /// When the scheduled follow-up read is due (uptime ns), if one is.
    @QueueConfined private var followUpDue: UInt64?
    @QueueConfined private var windowOpen: Bool
    @QueueConfined private var wokeInWindow: Bool
    @QueueConfined private var timer: DispatchSourceTimer?
    @QueueConfined private var fallbackInterval: Double
    @QueueConfined private var silenceLimit: Double
    private var heartbeat: Double { HistorySettings.heartbeat(forSilenceLimit: silenceLimit) }
    @QueueConfined private var stopped: Bool
    /// Whether the last read reached the store (false while a server is away); read from any thread.
    let isReachable = Atomic<Bool>(true)
    /// The position read through, stored after what was read there was handed on (read from any thread).
    let readThrough = Atomic<Int64>(0)

    /// After a wake, further wakes within this many milliseconds share one read.
    private static let windowMilliseconds = 2
    /// Acknowledgements closer together than this wait (ns).
    private static let acknowledgementSpacing: UInt64 = 100_000_000

    /// A follower for a reader the feed registered at `position`.
    init(feed: StoreChangeFeed, registeredAt position: Int64, deliver: @escaping @Sendable (ChangeSet, HeardRows?) -> Void) {
        let queue = DispatchQueue(label: "folio.store.history", target: feed.followerTarget)
        self.queue = queue
        self.feed = feed
        self.deliver = deliver
        func confined<T>(_ value: T) -> QueueConfined<T> { QueueConfined(wrappedValue: value, on: queue) }
        _position = confined(position)
        _acknowledged = confined(position)
        _lastAttempt = confined(0)
        _lastSuccess = confined(DispatchTime.now().uptimeNanoseconds)
        _acknowledgementScheduled = confined(false)
        _followUpDue = confined(nil)
        _windowOpen = confined(false)
        _wokeInWindow = confined(false)
        _timer = confined(nil)
        _fallbackInterval = confined(1)
        _silenceLimit = confined(HistorySettings.defaultSilenceLimit)
        _stopped = confined(false)
        readThrough.store(position, ordering: .releasing)
        queue.setSpecific(key: Self.queueKey, value: ObjectIdentifier(self))
    }

    // The last reference can go on any thread; nothing else uses the timer then.
    deinit { _timer.valueInDeinit?.cancel() }

    /// Starts the feed's waking and a fallback poll every `fallbackInterval`
    /// seconds (sooner if the heartbeat needs it), and reads once.
    func start(fallbackInterval: Double) {
        queue.async { [self] in
            guard !stopped else { return }
            self.fallbackInterval = fallbackInterval
            _ = feed.startWaking(on: queue) { [weak self] in self?.woke() }
            let t = DispatchSource.makeTimerSource(queue: queue)
            t.setEventHandler { [weak self] in self?.poll() }
            timer = t
            scheduleTimer()
            t.resume()
            poll()
        }
    }

    /// Drops other readers silent for `seconds` (and heartbeats to match) from now on.
    func setSilenceLimit(_ seconds: Double) {
        queue.sync {
            silenceLimit = seconds
            scheduleTimer()
        }
    }

    private func scheduleTimer() {
        let interval = max(0.001, min(fallbackInterval, heartbeat))
        timer?.schedule(deadline: .now() + interval, repeating: interval, leeway: .nanoseconds(Int(interval * 1e8)))
    }

    /// Stops following and removes the reader from the store, before it
    /// returns: once a container is gone, none of its connections is open
    /// (a damaged file, a test that checks the files, a user moving them).
    func stop() {
        let finish = { [self] in
            stopped = true
            timer?.cancel()
            feed.unregister()
            // Closed here, not when the follower goes: a read scheduled on the queue
            // can hold the follower a moment past its coordinator.
            feed.close()
        }
        // The coordinator can be released on the queue itself, while it delivers.
        if DispatchQueue.getSpecific(key: Self.queueKey) == ObjectIdentifier(self) { finish() } else { queue.sync(execute: finish) }
    }

    private static let queueKey = DispatchSpecificKey<ObjectIdentifier>()

    /// Reads and acknowledges now, waiting for it (never for another writer's lock).
    func pollNow() {
        queue.sync { _ = poll(forceAcknowledgement: true) }
    }

    /// The feed saw the store's files change: read at once, then at most
    /// once per window while wakes keep coming (a big commit writes for a
    /// while), and once more at the end of the window after the last wake.
    /// That last read also catches a commit that was not visible yet when
    /// its wake arrived (see ``SQLiteStoreWatcher``). A feed that reads
    /// before it wakes (see ``StoreChangeFeed/readsBeforeWaking``) coalesces
    /// wakes itself: each is one read, from memory.
    private func woke() {
        if feed.readsBeforeWaking {
            poll()
            return
        }
        if windowOpen {
            wokeInWindow = true
            return
        }
        if !poll() {
            // Most often the log write was seen before its index update: look again very soon.
            queue.asyncAfter(deadline: .now() + .microseconds(300)) { [weak self] in self?.poll() }
        }
        openWindow()
    }

    private func openWindow() {
        windowOpen = true
        wokeInWindow = false
        queue.asyncAfter(deadline: .now() + .milliseconds(Self.windowMilliseconds)) { [weak self] in
            guard let self else { return }
            windowOpen = false
            poll()
            if wokeInWindow { openWindow() }
        }
    }

    /// Reads again after `milliseconds`, unless a read is due sooner: a
    /// later follow-up (the server away) never stands in for an earlier
    /// one (busy), and a timer overtaken by an earlier one does nothing.
    private func followUp(after milliseconds: Int) {
        let due = DispatchTime.now().uptimeNanoseconds &+ UInt64(milliseconds) * 1_000_000
        if let scheduled = followUpDue, scheduled <= due { return }
        followUpDue = due
        queue.asyncAfter(deadline: DispatchTime(uptimeNanoseconds: due)) { [weak self] in
            guard let self, followUpDue == due else { return }
            followUpDue = nil
            poll()
        }
    }

    /// Reads what is new and hands it on; true if the read found rows or a trim.
    @discardableResult
    private func poll(forceAcknowledgement: Bool = false) -> Bool {
        guard !stopped else { return false }
        let read: HistoryRead
        do {
            read = try feed.read(after: position, fresh: forceAcknowledgement)
        } catch StoreError.offline {
            // The server is away: say so, and try again less often until it is back.
            isReachable.store(false, ordering: .relaxed)
            followUp(after: 500)
            return false
        } catch {
            followUp(after: 50)  // busy or transient: the position did not move
            return false
        }
        isReachable.store(true, ordering: .relaxed)
        if read.trimmed {
            position = max(position, read.latest)
            deliver(.reload(origin: .otherProcess), nil)
        } else if let last = read.rows.last?.position {
            position = last
            // In place: a follower behind by many rows folds them without copying the set at each.
            var merged = ChangeSet(origin: .otherProcess)
            for row in read.rows { merged.merge(row.changes) }
            merged.origin = .otherProcess
            if !merged.isEmpty { deliver(merged, read.heard) }
        }
        readThrough.store(position, ordering: .releasing)
        acknowledgeIfDue(force: forceAcknowledgement)
        return !read.rows.isEmpty || read.trimmed
    }

    /// Records the position when it moved or the heartbeat is due, spacing attempts out.
    private func acknowledgeIfDue(force: Bool = false) {
        let now = DispatchTime.now().uptimeNanoseconds
        let heartbeatDue = now &- lastSuccess >= UInt64(heartbeat * 1e9)
        guard force || heartbeatDue || acknowledged != position else { return }
        if !force && now &- lastAttempt < Self.acknowledgementSpacing {
            scheduleAcknowledgement(at: lastAttempt &+ Self.acknowledgementSpacing)
            return
        }
        lastAttempt = now
        do {
            try feed.acknowledge(position: position, silenceLimit: silenceLimit)
            acknowledged = position
            lastSuccess = now
        } catch {
            scheduleAcknowledgement(at: now &+ Self.acknowledgementSpacing)  // busy: another writer has the lock
        }
    }

    private func scheduleAcknowledgement(at uptime: UInt64) {
        guard !acknowledgementScheduled else { return }
        acknowledgementScheduled = true
        queue.asyncAfter(deadline: DispatchTime(uptimeNanoseconds: uptime)) { [weak self] in
            guard let self, !stopped else { return }
            acknowledgementScheduled = false
            acknowledgeIfDue()
        }
    }
}
