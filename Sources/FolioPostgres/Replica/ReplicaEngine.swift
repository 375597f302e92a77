import Dispatch
import FolioLocking
import FolioStore
import Foundation
import Glibc
import Synchronization

/// The background sync of a replica: on a serial queue of its own it pushes
/// the outbox in commit order, then pulls the server's other saves, whenever
/// a local save commits, the server announces a save, or a fallback timer
/// fires. Every server error is caught here: the server being away makes
/// the replica offline and the sync tries again with a growing pause; saves
/// never wait for it. Of the containers on one replica file (in any
/// process) one syncs at a time: the one holding the lock on the file's
/// `-sync` companion, which the system lets go when its process dies.
final class ReplicaEngine: ReplicaSyncEngine, @unchecked Sendable {  // mutable state is @QueueConfined to `queue`
    private let queue: DispatchQueue
    private let postgres: PostgresServer
    private let path: String
    private let schema: Schema
    private let journal: ReplicaJournal
    private let busyTimeoutMilliseconds: Int32
    private let policy = LockedValue<MergePolicy>(.error)
    private let automatic = Atomic<Bool>(true)
    private let roundQueued = Atomic<Bool>(false)
    /// The author of the history rows the sync writes into the replica (not any container's).
    private let localAuthor = "sync-" + UUID().uuidString
    @QueueConfined private var file: ReplicaFile?
    @QueueConfined private var remote: PostgresBackend?
    @QueueConfined private var feed: PostgresChangeFeed?
    @QueueConfined private var lockDescriptor: Int32
    @QueueConfined private var report: (@Sendable (SyncStatus.State) -> Void)?
    @QueueConfined private var state: SyncStatus.State
    @QueueConfined private var timer: DispatchSourceTimer?
    @QueueConfined private var pause: Double
    @QueueConfined private var stopped: Bool
    /// Rounds that pulled nothing because only this replica's own pushes were announced since the last.
    @QueueConfined private var ownWakesSkipped: Int

    /// How often an idle replica looks for work the wakes missed (another process's saves on the file).
    static let fallbackInterval = 1.0
    static let shortestPause = 0.25
    static let longestPause = 5.0
    /// How long the server keeps history for a replica that stopped acknowledging (then it re-reads the store).
    static let silenceLimit = 600.0

    init(server: PostgresServer, path: String, schema: Schema, journal: ReplicaJournal, busyTimeoutMilliseconds: Int32) {
        postgres = server
        self.path = path
        self.schema = schema
        self.journal = journal
        self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
        let queue = DispatchQueue(label: "folio.replica.sync")
        self.queue = queue
        func confined<T>(_ value: T) -> QueueConfined<T> { QueueConfined(wrappedValue: value, on: queue) }
        _file = confined(nil)
        _remote = confined(nil)
        _feed = confined(nil)
        _lockDescriptor = confined(-1)
        _report = confined(nil)
        _state = confined(SyncStatus.State())
        _timer = confined(nil)
        _pause = confined(Self.shortestPause)
        _stopped = confined(false)
        _ownWakesSkipped = confined(0)
        queue.setSpecific(key: Self.queueKey, value: ObjectIdentifier(self))
    }

    private static let queueKey = DispatchSpecificKey<ObjectIdentifier>()

    /// How many rounds skipped their pull because only the replica's own pushes were announced (for tests).
    var pullsSkippedForOwnPushes: Int { queue.sync { ownWakesSkipped } }

    var mergePolicy: MergePolicy {
        get { policy.withLock { $0 } }
        set {
            policy.withLock { $0 = newValue }
            wake()
        }
    }

    var syncsAutomatically: Bool {
        get { automatic.load(ordering: .relaxed) }
        set {
            automatic.store(newValue, ordering: .relaxed)
            if newValue { wake() }
        }
    }

    func start(report: @escaping @Sendable (SyncStatus.State) -> Void) {
        journal.onCommit { [weak self] in self?.wake() }
        queue.async { [self] in
            guard !stopped else { return }
            self.report = report
            // What waits, and what an earlier launch or the container that syncs could not settle.
            state.waitingChanges = (try? openFile().waitingCount()) ?? 0
            showStored()
            publish()
            let t = DispatchSource.makeTimerSource(queue: queue)
            t.setEventHandler { [weak self] in self?.tick() }
            timer = t
            t.schedule(deadline: .now() + Self.fallbackInterval)
            t.resume()
            tick()
        }
    }

    /// Something may wait to be pushed or pulled: sync soon (wakes close together share one round).
    /// Called on the saving thread after every save: a wake while a round is queued, or while the
    /// sync is off, costs an atomic load, not a hand-over to the sync's thread.
    func wake() {
        guard syncsAutomatically, !roundQueued.exchange(true, ordering: .acquiringAndReleasing) else { return }
        queue.async { [weak self] in
            guard let self else { return }
            // Cleared first: a wake during this round queues the next.
            roundQueued.store(false, ordering: .releasing)
            tick()
        }
    }

    func syncNow() async throws -> SyncReport {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<SyncReport, any Error>) in
            queue.async { [self] in
                continuation.resume(with: Result { try round(asked: true) })
            }
        }
    }

    /// One round on the queue: the report of a push and a pull, the state published either way.
    /// A round the app `asked` for always pulls.
    private func round(asked: Bool = false) throws -> SyncReport {
        guard !stopped else { throw StoreError.cannotOpen(path: path, message: "the container was closed") }
        guard holdsLock() else {
            state.waitingChanges = (try? openFile().waitingCount()) ?? state.waitingChanges
            showStored()
            publish()
            return SyncReport(waiting: state.waitingChanges, problem: "another container syncs this replica")
        }
        do {
            let result = try syncOnce(asked: asked)
            state.isOnline = true
            state.lastSynced = Date()
            state.conflicts = result.unsettled
            state.problem = result.problem
            state.waitingChanges = result.waiting
            pause = Self.shortestPause
            publish()
            return result
        } catch {
            switch error {
            case StoreError.offline, StoreError.timedOut:
                state.isOnline = false
                dropConnections()
                showStored()
            default:
                state.problem = "\(error)"
            }
            state.waitingChanges = (try? openFile().waitingCount()) ?? state.waitingChanges
            publish()
            throw error
        }
    }

    private func tick() {
        guard !stopped else { return }
        guard syncsAutomatically else {
            timer?.schedule(deadline: .now() + Self.fallbackInterval)
            return
        }
        var delay = Self.fallbackInterval
        do { _ = try round() } catch {
            delay = pause
            pause = min(pause * 2, Self.longestPause)
        }
        timer?.schedule(deadline: .now() + delay)
    }

    /// Pushes every waiting save it can (stopping at one it cannot), then pulls once.
    private func syncOnce(asked: Bool) throws -> SyncReport {
        let file = try openFile()
        let server = try connect()
        let identity = journal.identity
        var result = SyncReport()
        let push = ReplicaPush(
            server: server, file: file, schema: schema, identity: identity, policy: mergePolicy, localAuthor: localAuthor)
        var waiting = WaitingSaves()
        try waiting.catchUp(file)
        ReplicaTrace.note("round asked=\(asked) policy=\(mergePolicy) waiting=\(waiting.oldest(1_000_000).map(\.seq))")
        do { try pushWaiting(push, &waiting, into: &result) } catch {
            // Committed on the server: recorded here now if the file lets it (else the next push reads them back).
            try? push.recordUnrecorded(&waiting)
            throw error
        }
        try push.recordUnrecorded(&waiting)
        // Woken only by its own pushes (the file has them) and nothing deferred: no pull, no acknowledgement.
        let onlyOwn = feed?.heardOnlyOwn() ?? false
        if onlyOwn && !asked, try file.deferredRows().isEmpty {
            ownWakesSkipped += 1
            result.waiting = try file.waitingCount()
            try file.setUnsettled(result.unsettled, problem: result.problem)
            return result
        }
        let pulled = try ReplicaPull(server: server, file: file, schema: schema, identity: identity, localAuthor: localAuthor).pull()
        result.pulled = pulled.entries
        ReplicaTrace.note("pulled \(pulled.entries) to \(pulled.position) reloaded=\(pulled.reloaded)")
        // Keeps the history this replica has not pulled yet on the server (and mends the waking connection).
        try? feed?.acknowledge(position: pulled.position, silenceLimit: Self.silenceLimit)
        result.waiting = try file.waitingCount()
        try file.setUnsettled(result.unsettled, problem: result.problem)
        return result
    }

    /// Pushes the waiting saves in batches, until none waits or the oldest
    /// meets conflicts the policy leaves to the app or is refused.
    private func pushWaiting(_ push: ReplicaPush, _ waiting: inout WaitingSaves, into result: inout SyncReport) throws {
        while true {
            let batch = waiting.oldest(ReplicaPush.batchSize)
            if batch.isEmpty { break }
            var alone = false
            do {
                let outcome = try push.push(batch, waiting: &waiting)
                ReplicaTrace.note(
                    "batch \(batch.map(\.seq)) pushed=\(outcome.pushed) refused=\(outcome.refused) conflicts=\(outcome.conflicts.map { "\($0)" } ?? "-")"
                )
                result.pushed += outcome.pushed
                waiting.pushed(outcome.pushed)
                if let conflicts = outcome.conflicts {
                    result.unsettled = conflicts
                    return
                }
                alone = outcome.refused
            } catch let error as StoreError where !error.isServerAway {
                ReplicaTrace.note("batch \(batch.map(\.seq)) failed \(error)")
                // Refused at the batch's commit: the entries go one at a time, so the one refused is found.
                alone = true
            }
            // The oldest waiting entry, alone: its pushed predecessors left the outbox.
            guard alone, let (seq, entry) = waiting.oldest(1).first else { continue }
            try push.recordUnrecorded(&waiting)
            do {
                let pushed = try push.push(seq, entry)
                ReplicaTrace.note("alone \(seq) \(pushed)")
                switch pushed {
                case .pushed:
                    result.pushed += 1
                    waiting.pending.remove(entry)
                    waiting.pushed(1)
                case .conflicts(let conflicts):
                    result.unsettled = conflicts
                    return
                }
            } catch let error as StoreError where !error.isServerAway {
                ReplicaTrace.note("alone \(seq) refused \(error)")
                // Refused by the server (a unique value taken meanwhile, say): it waits, and the pull goes on.
                result.problem = "\(error)"
                return
            }
        }
    }

    /// Shows what the file says holds up the oldest waiting save (kept by whichever container synced it).
    private func showStored() {
        guard let stored = try? openFile().unsettled() else { return }
        state.conflicts = stored.saveConflicts
        state.problem = stored.problem
    }

    private func openFile() throws -> ReplicaFile {
        if let file { return file }
        let opened = try ReplicaFile.open(path, busyTimeoutMilliseconds: busyTimeoutMilliseconds, checkpointing: true)
        file = opened
        return opened
    }

    /// The server connection (prepared for the schema once a session), and the connection that wakes the sync.
    private func connect() throws -> PostgresBackend {
        if let remote, remote.connection.isConnected { return remote }
        let server = try PostgresBackend(
            server: postgres, namespace: schema.name, readOnly: false, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        try server.prepare(schema)
        remote = server
        if feed == nil {
            let waker = try PostgresChangeFeed(
                server: postgres, namespace: schema.name, reader: journal.identity.author,
                busyTimeoutMilliseconds: busyTimeoutMilliseconds)
            _ = waker.startWaking(on: queue) { [weak self] in self?.wake() }
            feed = waker
        }
        return server
    }

    private func dropConnections() {
        remote?.connection.close()
        remote = nil
        feed?.close()
        feed = nil
    }

    /// Whether this engine holds the replica's sync lock (taking it if it is free).
    private func holdsLock() -> Bool {
        if lockDescriptor >= 0 { return true }
        let fd = Glibc.open(path + "-sync", O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return false }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            _ = Glibc.close(fd)
            return false
        }
        lockDescriptor = fd
        return true
    }

    private func publish() {
        report?(state)
    }

    func stop() {
        journal.onCommit(nil)
        let finish = { [self] in
            stopped = true
            timer?.cancel()
            timer = nil
            dropConnections()
            file = nil
            if lockDescriptor >= 0 {
                _ = Glibc.close(lockDescriptor)
                lockDescriptor = -1
            }
        }
        if DispatchQueue.getSpecific(key: Self.queueKey) == ObjectIdentifier(self) { finish() } else { queue.sync(execute: finish) }
    }
}
