import Dispatch
import FolioStore
import Foundation
import Glibc

/// The PostgreSQL change feed: a connection of its own that LISTENs on the
/// namespace's channel and reads the history after the container's
/// position. A notification only wakes it; what changed always comes from
/// the history, so a dropped notification, a lost connection or a
/// restarted server loses nothing. LISTEN is part of every session of the
/// connection, whichever statement reconnects it, and each new session is
/// watched anew and followed by a read from the position (the catch-up).
/// Used on the follower's queue only.
///
///     let feed = try PostgresChangeFeed(uri: uri, namespace: "planets", reader: author)
///     let read = try feed.read(after: position)
package final class PostgresChangeFeed: StoreChangeFeed {
    private let namespace: String?
    private let reader: String
    private let busyTimeoutMilliseconds: Int32
    private let connection: PGConnection
    /// The source watching the socket of one session (`generation`).
    private var watcher: (generation: Int, source: DispatchSourceRead)?
    private var waking: (queue: DispatchQueue, wake: @Sendable () -> Void)?

    init(server: PostgresServer, namespace: String?, reader: String, busyTimeoutMilliseconds: Int32) throws {
        self.namespace = namespace
        self.reader = reader
        self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
        let channel = PostgresServer.channel(namespace)
        connection = try server.openConnection(namespace: namespace, readOnly: false) { c in
            // Named in pg_stat_activity, so an operator (or a test) can tell the listener from the readers and writers.
            try c.execute("SELECT set_config('application_name', current_setting('application_name') || ' (feed)', false); LISTEN \(channel)")
        }
    }

    /// A feed on the store at `uri` (tests drive one directly).
    package convenience init(uri: String, namespace: String?, reader: String) throws {
        try self.init(server: PostgresServer(uri: uri), namespace: namespace, reader: reader, busyTimeoutMilliseconds: 5000)
    }

    /// Runs `body` on the connection (which reconnects by itself when it
    /// was lost), then watches a new session's socket and wakes for its catch-up.
    private func using<T>(_ body: (PGConnection) throws -> T) throws -> T {
        defer { watchTheSession() }
        return try body(connection)
    }

    package func register() throws -> Int64 {
        try using { try PostgresHistory.register($0, reader: reader, lockKey: PostgresLock.key(namespace ?? ""), waitMilliseconds: busyTimeoutMilliseconds) }
    }

    package func read(after position: Int64) throws -> HistoryRead {
        try using { c in
            _ = c.drainNotifications()
            return try PostgresHistory.read(c, after: position, excludingAuthor: reader)
        }
    }

    package func acknowledge(position: Int64, silenceLimit: Double) throws {
        try using { try PostgresHistory.acknowledge($0, reader: reader, position: position, silenceLimit: silenceLimit) }
    }

    package func unregister() {
        _ = try? using { try $0.query("DELETE FROM folio_readers WHERE reader = $1", [.text(reader)]) }
    }

    package func startWaking(on queue: DispatchQueue, _ wake: @escaping @Sendable () -> Void) -> Bool {
        waking = (queue, wake)
        watchTheSession()
        return true
    }

    /// Keeps a read source on the current session's socket. A session the
    /// source does not watch yet (the first, or one a statement reconnected)
    /// gets a new source and a wake, so the follower reads from its position
    /// what was saved while no one listened; a lost session gets none until
    /// a statement reconnects it. The source watches a duplicate of the
    /// socket that it closes when cancelled: libpq closes its own descriptor
    /// whenever it likes, and a source must not outlive its descriptor.
    private func watchTheSession() {
        guard let (queue, wake) = waking else { return }
        let generation = connection.generation
        if let watcher, watcher.generation == generation, connection.isConnected { return }
        watcher?.source.cancel()
        watcher = nil
        guard connection.isConnected, let socket = connection.socket else { return }
        let fd = dup(socket)
        guard fd >= 0 else { return }
        let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        source.setEventHandler { [weak self] in
            guard let self else { return }
            // Notifications are only a wake; a broken session is mended by the read the wake causes.
            _ = connection.drainNotifications()
            watchTheSession()
            wake()
        }
        source.setCancelHandler { _ = Glibc.close(fd) }
        watcher = (generation, source)
        source.resume()
        queue.async(execute: wake)
    }

    /// The server process of the listening connection (tests end it to show the feed recovers).
    package var listenerProcessID: Int32 { connection.serverProcessID }

    package func close() {
        watcher?.source.cancel()
        watcher = nil
        waking = nil
        connection.close()
    }
}
