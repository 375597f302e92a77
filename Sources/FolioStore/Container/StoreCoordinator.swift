import Dispatch
import Foundation

/// Shared by all contexts of one container: the backend under a lock, the
/// contexts' inboxes for merging, and the poller that turns other processes'
/// commits into change sets.
final class StoreCoordinator: @unchecked Sendable {
    let schema: Schema
    let author = UUID().uuidString
    private let lock = NSLock()
    private let backend: SQLiteBackend
    private var inboxes: [Int: @Sendable (ChangeSet) -> Void] = [:]
    private var nextInbox = 0
    private var historyPosition: Int64 = 0
    private var lastHeartbeat = Date.distantPast
    private var timer: DispatchSourceTimer?
    private let pollQueue = DispatchQueue(label: "folio.store.history")

    /// Opens the store at `path` (nil: in memory). A file that is not a
    /// Folio store of `schema` is refused before anything is written; a
    /// read-only store registers no reader and is never written.
    init(schema: Schema, path: String?, readOnly: Bool = false, busyTimeoutMilliseconds: Int32,
         integrityCheckLimit: Int = SQLiteBackend.integrityCheckLimit) throws {
        self.schema = schema
        if let path { try StoreFile.requireStore(at: path, for: schema) }
        backend = try SQLiteBackend(path: path, readOnly: readOnly, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        if !readOnly { try backend.checkIntegrity(upTo: integrityCheckLimit) }
        try backend.prepare(schema)
        if path != nil && !readOnly {
            historyPosition = try backend.registerReader(author)
        }
    }

    deinit {
        timer?.cancel()
        if !backend.isReadOnly { try? backend.removeReader(author) }
    }

    var path: String { backend.path }

    /// Runs `body` with exclusive use of the backend.
    func withBackend<T>(_ body: (StoreBackend) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(backend)
    }

    func addInbox(_ deliver: @escaping @Sendable (ChangeSet) -> Void) -> Int {
        lock.lock()
        defer { lock.unlock() }
        nextInbox += 1
        inboxes[nextInbox] = deliver
        return nextInbox
    }

    func removeInbox(_ id: Int) {
        lock.lock()
        inboxes[id] = nil
        lock.unlock()
    }

    /// Delivers a change set to every inbox except `sender`'s.
    func broadcast(_ changes: ChangeSet, except sender: Int?) {
        lock.lock()
        let targets = inboxes.filter { $0.key != sender }.map(\.value)
        lock.unlock()
        for deliver in targets { deliver(changes) }
    }

    /// Starts watching the file for other processes' commits every `interval` seconds.
    func startPolling(interval: Double) {
        guard !backend.isInMemory, !backend.isReadOnly, timer == nil else { return }
        let t = DispatchSource.makeTimerSource(queue: pollQueue)
        t.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(5))
        t.setEventHandler { [weak self] in self?.poll() }
        timer = t
        t.resume()
    }

    /// Reads history written by others since the last poll and broadcasts it.
    ///
    /// The history table's positions are the only record of what this
    /// container has seen: every row after `historyPosition` is read, whatever
    /// else happened since the last poll, so no commit can be skipped. (A
    /// cached `PRAGMA data_version` is not enough: our own acknowledgement is a
    /// write, and a write that waited for another connection's commit moves
    /// the version past a commit we never read.)
    func poll() {
        let found: [ChangeSet]
        do {
            found = try withBackend { _ -> [ChangeSet] in
                let rows = try backend.history(after: historyPosition, excludingAuthor: author)
                if let last = rows.last?.0 { historyPosition = last }
                let now = Date()
                if !rows.isEmpty || now.timeIntervalSince(lastHeartbeat) > 5 {
                    // Only trims history and keeps us counted as alive; a busy
                    // store must not cost the rows just read, so a failure waits for the next tick.
                    if (try? backend.acknowledge(reader: author, position: historyPosition)) != nil { lastHeartbeat = now }
                }
                return rows.map(\.1).filter { !$0.isEmpty }
            }
        } catch {
            return  // The read failed (busy or transient): the position did not move, the next tick retries.
        }
        for changes in found { broadcast(changes, except: nil) }
    }
}
