import Dispatch
import FolioStore
import Foundation

/// The PostgreSQL change feed: a connection of its own that LISTENs on the
/// namespace's channel and reads the history after the container's
/// position. A notification only wakes it; what changed always comes from
/// the history, so a dropped notification, a lost connection or a
/// restarted server loses nothing: the next read reconnects, LISTENs again
/// and catches up from the position (or learns the history was trimmed).
/// Used on the follower's queue only.
///
///     let feed = try PostgresChangeFeed(server: server, namespace: "planets", reader: author, busyTimeoutMilliseconds: 5000)
///     let read = try feed.read(after: position)
final class PostgresChangeFeed: StoreChangeFeed {
    private let server: PostgresServer
    private let namespace: String?
    private let reader: String
    private let busyTimeoutMilliseconds: Int32
    private var connection: PGConnection?
    private var source: DispatchSourceRead?
    private var waking: (queue: DispatchQueue, wake: @Sendable () -> Void)?

    init(server: PostgresServer, namespace: String?, reader: String, busyTimeoutMilliseconds: Int32) throws {
        self.server = server
        self.namespace = namespace
        self.reader = reader
        self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
        connection = try connect()
    }

    /// A new connection listening on the channel.
    private func connect() throws -> PGConnection {
        let c = try server.openConnection(namespace: namespace, readOnly: false)
        // Named in pg_stat_activity, so an operator (or a test) can tell the listener from the readers and writers.
        try c.execute("SELECT set_config('application_name', current_setting('application_name') || ' (feed)', false); "
                      + "LISTEN \(PostgresServer.channel(namespace))")
        return c
    }

    /// The connection, reconnected (listening and watched again) if it was lost.
    private func live() throws -> PGConnection {
        if let connection, connection.isConnected { return connection }
        source?.cancel()
        source = nil
        connection = nil
        let c = try connect()
        connection = c
        watch()
        return c
    }

    func register() throws -> Int64 {
        try PostgresHistory.register(try live(), reader: reader, lockKey: PostgresLock.key(namespace ?? ""),
                                     waitMilliseconds: busyTimeoutMilliseconds)
    }

    func read(after position: Int64) throws -> HistoryRead {
        let c = try live()
        _ = c.drainNotifications()
        do {
            return try PostgresHistory.read(c, after: position, excludingAuthor: reader)
        } catch StoreError.offline(let store, let message) {
            // The server went away under the listener: drop it so the next read reconnects.
            dropConnection()
            throw StoreError.offline(store: store, message: message)
        }
    }

    func acknowledge(position: Int64, silenceLimit: Double) throws {
        try PostgresHistory.acknowledge(try live(), reader: reader, position: position, silenceLimit: silenceLimit)
    }

    func unregister() {
        guard let c = try? live() else { return }
        _ = try? c.query("DELETE FROM folio_readers WHERE reader = $1", [.text(reader)])
        dropConnection()
    }

    func startWaking(on queue: DispatchQueue, _ wake: @escaping @Sendable () -> Void) -> Bool {
        waking = (queue, wake)
        watch()
        return true
    }

    /// Watches the connection's socket: each notification, or a broken
    /// connection (which the next read mends), wakes the follower.
    private func watch() {
        guard let (queue, wake) = waking, let c = connection, let fd = c.socket else { return }
        let s = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        s.setEventHandler { [weak self] in
            guard let self, let connection = self.connection else { return }
            if !connection.drainNotifications() { self.dropConnection() }
            wake()
        }
        source = s
        s.resume()
    }

    private func dropConnection() {
        source?.cancel()
        source = nil
        connection = nil
    }

    /// The server process of the listening connection (tests end it to show the feed recovers).
    var listenerProcessID: Int32 { connection?.serverProcessID ?? 0 }

    func close() {
        source?.cancel()
        source = nil
        waking = nil
    }
}
