import Dispatch

/// The SQLite change feed: the history SQL on a connection of its own,
/// woken by ``SQLiteStoreWatcher`` when the store's files change.
///
///     let feed = SQLiteChangeFeed(backend: try store.reopenConnection(), reader: author)
///     let read = try feed.read(after: position)
final class SQLiteChangeFeed: StoreChangeFeed {
    /// Nil once closed: the connection closes then, whoever still holds the feed.
    private var backend: SQLiteBackend?
    /// This container's name among the readers, and the author of its own saves.
    private let reader: String
    private var watcher: SQLiteStoreWatcher?

    init(backend: SQLiteBackend, reader: String) {
        self.backend = backend
        self.reader = reader
    }

    private func open() throws -> SQLiteBackend {
        guard let backend else { throw Closed() }
        return backend
    }

    func register() throws -> Int64 {
        try open().registerReader(reader)
    }

    func read(after position: Int64) throws -> HistoryRead {
        try open().readHistory(after: position, excludingAuthor: reader)
    }

    func acknowledge(position: Int64, silenceLimit: Double) throws {
        try open().acknowledge(reader: reader, position: position, silenceLimit: silenceLimit)
    }

    func unregister() {
        try? backend?.removeReader(reader)
    }

    func startWaking(on queue: DispatchQueue, _ wake: @escaping @Sendable () -> Void) -> Bool {
        guard let backend else { return false }
        watcher = SQLiteStoreWatcher(path: backend.path, queue: queue, onChange: wake)
        return watcher != nil
    }

    /// What a closed feed's reads throw (the follower stops reading first).
    private struct Closed: Error {}

    func close() {
        watcher?.cancel()
        watcher = nil
        backend = nil
    }
}
