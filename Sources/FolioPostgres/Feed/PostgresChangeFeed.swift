import Dispatch
import FolioStore
import Foundation
import Glibc

/// The PostgreSQL change feed: a connection of its own that LISTENs on the
/// namespace's channel and reads the history after the container's
/// position. A notification wakes it; what changed comes from the history
/// (only a run of this container's own saves needs no read), so a dropped
/// notification, a lost connection or a restarted server loses nothing.
/// LISTEN is part of every session of the connection, whichever statement
/// reconnects it, and each new session is
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
    /// The positions this reader's own saves announced since the last read,
    /// in order; nil once anything else was heard or a session began, so
    /// that the next read asks the server.
    private var ownSinceRead: [Int64]? = []

    init(server: PostgresServer, namespace: String?, reader: String, busyTimeoutMilliseconds: Int32) throws {
        self.namespace = namespace
        self.reader = reader
        self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
        let channel = PostgresServer.channel(namespace)
        connection = try server.openConnection(namespace: namespace, readOnly: false) { c in
            // Named in pg_stat_activity, so an operator (or a test) can tell the listener from the readers and writers.
            try c.execute(
                "SELECT set_config('application_name', current_setting('application_name') || ' (feed)', false); LISTEN \(channel)")
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
        try using {
            try PostgresHistory.register(
                $0, reader: reader, lockKey: PostgresLock.key(namespace ?? ""), waitMilliseconds: busyTimeoutMilliseconds)
        }
    }

    /// What was saved after `position`. When all of it was this reader's
    /// own saves, announced one after another from the next position on,
    /// there is nothing to read: no other save can lie between them, as
    /// positions are drawn under the write lock and announced in commit order.
    package func read(after position: Int64) throws -> HistoryRead {
        try using { c in
            hear(c.drainNotifications())
            defer { ownSinceRead = [] }
            // Announcements of saves an earlier read already covered are behind the position.
            if let own = ownSinceRead?.filter({ $0 > position }), let last = own.last, own.elementsEqual((position + 1)...last) {
                return HistoryRead(rows: own.map { ($0, ChangeSet()) }, trimmed: false, latest: last)
            }
            return try PostgresHistory.read(c, after: position, excludingAuthor: reader)
        }
    }

    /// Notes the notifications drained (nil: the session broke).
    private func hear(_ payloads: [String]?) {
        guard let payloads else { return ownSinceRead = nil }
        for payload in payloads {
            let parts = payload.split(separator: " ", maxSplits: 1)
            if parts.count == 2, parts[1] == reader, let position = Int64(parts[0]) {
                ownSinceRead?.append(position)
            } else {
                ownSinceRead = nil
            }
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
            // A broken session is mended by the read the wake causes.
            hear(connection.drainNotifications())
            watchTheSession()
            wake()
        }
        source.setCancelHandler { _ = Glibc.close(fd) }
        watcher = (generation, source)
        ownSinceRead = nil  // the catch-up reads from the server
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
