import Dispatch
import FolioLocking
import FolioStore
import Glibc
import Synchronization

/// The one listening connection of this process to a server: every change
/// feed on it, of any namespace, hears its saves through this connection
/// (``PostgresFeedHub``). It LISTENs on each channel someone follows and
/// hands each notification's payload to that channel's followers; a
/// session that ends is told to every follower (nil), and a new session
/// listens on every channel and tells them too (nil: read from your
/// position, what was saved meanwhile was heard by no one). Like a feed's
/// own connection before it, it reconnects when a follower's statement
/// calls ``mend()`` (a follower's fallback poll does so within a second),
/// on its own queue: no statement waits for it.
///
///     let listener = PostgresListener.shared(server)
///     let id = listener.follow(channel: "folio_…") { payloads in wake(payloads) }
final class PostgresListener: @unchecked Sendable {  // mutable state is @QueueConfined to `queue`
    private let queue = DispatchQueue(label: "folio.postgres.listener")
    private let server: PostgresServer
    @QueueConfined private var connection: PGConnection?
    @QueueConfined private var source: DispatchSourceRead?
    @QueueConfined private var followers: [Int: (channel: String, hear: @Sendable ([String]?) -> Void)]
    @QueueConfined private var nextID: Int
    /// The server process of the current session (0 while there is none); read from any thread.
    let processID = Atomic<Int32>(0)
    /// A mending is queued and has not started.
    private let mendQueued = Atomic<Bool>(false)

    private init(server: PostgresServer) {
        self.server = server
        _connection = QueueConfined(wrappedValue: nil, on: queue)
        _source = QueueConfined(wrappedValue: nil, on: queue)
        _followers = QueueConfined(wrappedValue: [:], on: queue)
        _nextID = QueueConfined(wrappedValue: 0, on: queue)
    }

    private static let listeners = LockedValue<[String: PostgresListener]>([:])

    /// This process's listener on `server` (one per server URI).
    static func shared(_ server: PostgresServer) -> PostgresListener {
        listeners.withLock { all in
            if let listener = all[server.uri] { return listener }
            let listener = PostgresListener(server: server)
            all[server.uri] = listener
            return listener
        }
    }

    /// Calls `hear` (on the listener's queue) with the payloads of each
    /// notification on `channel`, or nil when a session ended or began.
    func follow(channel: String, _ hear: @escaping @Sendable ([String]?) -> Void) -> Int {
        queue.sync {
            nextID += 1
            let isNew = !followers.values.contains { $0.channel == channel }
            followers[nextID] = (channel, hear)
            if isNew, let connection, connection.isConnected { try? connection.execute("LISTEN \(channel)") }
            if connection == nil || !(connection?.isConnected ?? false) { reconnect() }
            return nextID
        }
    }

    /// Stops calling a follower; the last one closes the connection.
    func unfollow(_ id: Int) {
        queue.sync {
            guard let gone = followers.removeValue(forKey: id) else { return }
            if followers.isEmpty {
                closeSession()
            } else if !followers.values.contains(where: { $0.channel == gone.channel }), let connection, connection.isConnected {
                try? connection.execute("UNLISTEN \(gone.channel)")
            }
        }
    }

    /// Reconnects soon if the session ended (a follower calls this after
    /// each of its statements), on the listener's queue: the caller never
    /// waits for a session to open. A server that lets no new session in
    /// holds back the listening only; reads go on over the working
    /// connections, and the new session's wake brings their catch-up.
    func mend() {
        // One mending waits on the queue at a time: statements while a session opens add none.
        guard mendQueued.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else { return }
        queue.async { [self] in
            mendQueued.store(false, ordering: .releasing)
            guard !followers.isEmpty else { return }
            readable()
            if connection == nil { reconnect() }
        }
    }

    private func closeSession() {
        source?.cancel()
        source = nil
        connection?.close()
        connection = nil
        processID.store(0, ordering: .relaxed)
    }

    /// A new session listening on every followed channel, watched, and told to every follower.
    private func reconnect() {
        closeSession()
        let channels = Set(followers.values.map(\.channel))
        guard !channels.isEmpty,
            let c = try? server.openConnection(
                namespace: nil, readOnly: false,
                session: { c in
                    // Named in pg_stat_activity, so an operator (or a test) can tell the listener from the working connections.
                    try c.execute(
                        "SELECT set_config('application_name', current_setting('application_name') || ' (listener)', false); "
                            + channels.sorted().map { "LISTEN \($0)" }.joined(separator: "; "))
                }), let socket = c.socket
        else { return }
        // The source watches a duplicate it closes when cancelled: libpq closes its own descriptor when it likes.
        let fd = dup(socket)
        guard fd >= 0 else { return c.close() }
        connection = c
        processID.store(c.serverProcessID, ordering: .relaxed)
        let s = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        s.setEventHandler { [weak self] in self?.readable() }
        s.setCancelHandler { _ = Glibc.close(fd) }
        source = s
        s.resume()
        tellEveryone(nil)
    }

    private func readable() {
        guard let connection else { return }
        // Read twice: the first read can take only the server's farewell, and the end
        // that came with it would raise no further event; the second meets it.
        guard let first = connection.drainNotificationsByChannel(), let rest = connection.drainNotificationsByChannel(),
            connection.isConnected
        else {
            // Ended: everyone reads from their position (on connections of their own); a statement mends this one.
            closeSession()
            return tellEveryone(nil)
        }
        let heard = first + rest
        guard !heard.isEmpty else { return }
        var byChannel: [String: [String]] = [:]
        for (channel, payload) in heard { byChannel[channel, default: []].append(payload) }
        for follower in followers.values {
            if let payloads = byChannel[follower.channel] { follower.hear(payloads) }
        }
    }

    private func tellEveryone(_ payloads: [String]?) {
        for follower in followers.values { follower.hear(payloads) }
    }
}
