import Dispatch
import Foundation
import Synchronization

/// Shared by all contexts of one container: the connections (each behind its lock),
/// the contexts' inboxes for merging, and the follower that turns other
/// processes' commits into change sets.
///
/// The view context reads through one connection and writes through
/// another, so its reads never wait behind a save waiting for the write
/// lock; background contexts share a third connection, opened when the
/// first is made; history is read on a fourth. An in-memory store is one
/// connection, so every one of them is the same there.
final class StoreCoordinator: Sendable {
    let schema: Schema
    let author = UUID().uuidString
    let path: String
    let isInMemory: Bool
    /// Whether the store is on a database server.
    let isOnServer: Bool
    /// How the store's SQL spells what differs between databases.
    let dialect: SQLDialect
    /// The view context's writes (and the container's own statements).
    let viewWriter: LockedConnection
    /// The view context's reads.
    let viewReader: LockedConnection
    /// Background contexts' reads and writes, connected on first use.
    let backgroundConnection: LockedConnection
    private let inboxes = ContextInboxes()
    /// Reads other connections' saves.
    let follower: HistoryFollower?
    /// Syncs a replica with its server (nil unless the store is a writable replica).
    let syncEngine: (any ReplicaSyncEngine)?

    /// Opens the store `store` describes. A file that is not a Folio store
    /// of `schema` (or a database of another program) is refused before
    /// anything is written; a read-only store registers no reader, follows
    /// no other process and is never written.
    init(
        schema: Schema, store: StoreDescription, readOnly: Bool = false, busyTimeoutMilliseconds: Int32,
        integrityCheckLimit: Int = SQLiteBackend.integrityCheckLimit, seed: (() throws -> SeedRows)? = nil
    ) throws {
        self.schema = schema
        if case .server = store.location { isOnServer = true } else { isOnServer = false }
        let writer: StoreBackend
        let open: @Sendable () throws -> StoreBackend
        var engine: (any ReplicaSyncEngine)?
        switch store.location {
        case .file(let path):
            try StoreFile.requireStore(at: path, for: schema)
            // Checked before the writing connection where that makes no file; else on it.
            let checked = try !readOnly && SQLiteBackend.checkIntegrityUntouched(path, upTo: integrityCheckLimit)
            let sqlite = try SQLiteBackend(path: path, readOnly: readOnly, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
            if !readOnly {
                // Saves made without the replica's journal would never reach its server.
                if try sqlite.isReplica() {
                    throw StoreError.cannotOpen(
                        path: path,
                        message: "it is a replica of a server's store; open it as one "
                            + "(.postgreSQL(uri, replica: path)) so that its saves reach the server")
                }
                if !checked { try sqlite.checkIntegrity(upTo: integrityCheckLimit) }
            }
            let health = sqlite.connection.health
            writer = sqlite
            open = { try SQLiteBackend(path: path, readOnly: readOnly, health: health, busyTimeoutMilliseconds: busyTimeoutMilliseconds) }
        case .replica(let path, let replica):
            // The replica file is an ordinary store; its saves also write the replica's journal.
            try StoreFile.requireStore(at: path, for: schema)
            let journal = readOnly ? nil : try replica.prepare(at: path, schema: schema, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
            let sqlite = try SQLiteBackend(path: path, readOnly: readOnly, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
            sqlite.journal = journal
            if !readOnly { try sqlite.checkIntegrity(upTo: integrityCheckLimit) }
            let health = sqlite.connection.health
            writer = sqlite
            open = {
                let backend = try SQLiteBackend(
                    path: path, readOnly: readOnly, health: health, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
                backend.journal = journal
                return backend
            }
            if let journal {
                engine = try replica.makeEngine(
                    at: path, schema: schema, journal: journal, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
            }
        case .memory:
            writer = try SQLiteBackend(path: nil, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
            open = { throw StoreError.cannotOpen(path: ":memory:", message: "an in-memory store has one connection") }
        case .server(let server):
            writer = try server.connect(schema: schema, readOnly: readOnly, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
            open = { try server.connect(schema: schema, readOnly: readOnly, busyTimeoutMilliseconds: busyTimeoutMilliseconds) }
        }
        try writer.prepare(schema, seed: seed)
        writer.releaseIdleSession()
        self.path = writer.path
        dialect = writer.dialect
        isInMemory = writer.isInMemory
        if isInMemory {
            viewWriter = LockedConnection(writer)
            viewReader = viewWriter
            backgroundConnection = viewWriter
            follower = nil
            syncEngine = nil
            return
        }
        let reader = try open()
        let feed = readOnly ? nil : try writer.makeChangeFeed(reader: author)
        feed?.readsRows(of: schema)
        let start = try feed?.register() ?? reader.latestHistoryPosition()
        viewWriter = LockedConnection(writer)
        viewReader = LockedConnection(reader)
        backgroundConnection = LockedConnection(opening: open)
        syncEngine = engine
        let inboxes = self.inboxes
        follower = feed.map {
            HistoryFollower(feed: $0, registeredAt: start) { changes, heard in
                inboxes.broadcast(changes, heard: heard, except: nil)
            }
        }
    }

    /// As above, for the file at `path` (nil: in memory).
    convenience init(
        schema: Schema, path: String?, readOnly: Bool = false, busyTimeoutMilliseconds: Int32,
        integrityCheckLimit: Int = SQLiteBackend.integrityCheckLimit
    ) throws {
        try self.init(
            schema: schema, store: path.map(StoreDescription.file) ?? .inMemory, readOnly: readOnly,
            busyTimeoutMilliseconds: busyTimeoutMilliseconds, integrityCheckLimit: integrityCheckLimit)
    }

    deinit {
        syncEngine?.stop()
        follower?.stop()
    }

    /// Starts following other processes' saves, with a fallback poll every `interval` seconds.
    func startFollowing(fallbackInterval interval: Double) {
        follower?.start(fallbackInterval: interval)
    }

    /// Whether the store answered the follower's last read (always true for a file).
    var isReachable: Bool { follower?.isReachable.load(ordering: .relaxed) ?? true }

    /// Reads other processes' saves now (the follower does this by itself).
    func pollNow() {
        follower?.pollNow()
    }

    /// Makes this container drop readers silent for `seconds` (a minute by
    /// default), for tests that stop a reader for a few seconds.
    func setReaderSilenceLimit(_ seconds: Double) {
        follower?.setSilenceLimit(seconds)
    }

    /// Runs `body` with the container's primary connection (the view context's writer).
    func withBackend<T>(_ body: (StoreBackend) throws -> T) throws -> T {
        try viewWriter.with(body)
    }

    func addInbox(_ deliver: @escaping @Sendable (ChangeSet, HeardRows?) -> Void) -> Int { inboxes.add(deliver) }

    func removeInbox(_ id: Int) { inboxes.remove(id) }

    /// Delivers a change set to every inbox except `sender`'s.
    func broadcast(_ changes: ChangeSet, except sender: Int?) { inboxes.broadcast(changes, except: sender) }

    /// Whether a context other than `inbox`'s would hear a broadcast.
    func hasInboxes(besides inbox: Int) -> Bool { inboxes.hasInboxes(besides: inbox) }
}
