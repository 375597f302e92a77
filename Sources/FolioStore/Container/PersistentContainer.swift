import Dispatch
import Foundation

/// Opens a store and owns its contexts: the main-actor `viewContext` and
/// background contexts. Saved changes of any context merge into the others,
/// and commits by other processes on the same file arrive as change sets.
///
///     let container = try PersistentContainer(schema: Schema([Planet.self]), path: "/tmp/planets.sqlite")
///     let context = container.viewContext
///     let earth = Planet(context: context); earth.name = "Earth"
///     try context.save()
@MainActor
public final class PersistentContainer {
    /// The schema the store was opened with.
    public let schema: Schema
    /// The file, or nil for an in-memory store or a server's.
    public let path: String?
    /// Where the store lives.
    public let store: StoreDescription
    /// The context for the main actor (the UI).
    public let viewContext: ObjectContext
    /// How the sync of a replica (`.postgreSQL(uri, replica: path)`) is doing; nil for any other store.
    public let syncStatus: SyncStatus?
    let coordinator: StoreCoordinator

    /// Opens the Folio store at `path` (WAL, foreign keys on), migrating it
    /// to `schema` when needed; `path: nil` makes an in-memory store.
    ///
    /// Where there is no store yet (no file, or an empty one) a new one is
    /// made whole: its tables and what `seed` inserts (saved for it) are
    /// built first and the file appears in one step, so a process killed at
    /// any moment leaves no store or a seeded one, and of several processes
    /// opening it at once one seeds it. A file that is not a Folio store, or
    /// is the store of another schema, is refused and left exactly as it
    /// was; damage found in the file stops all writing to it.
    ///
    /// A `readOnly` container writes nothing to an existing store (no
    /// migration, no reader row, no checkpoint), reads beside a writer that
    /// holds the lock, works on read-only files and folders, and follows no
    /// other process's saves; it still creates a missing store when given a
    /// `seed`. A save waits at most `busyTimeout` seconds for another
    /// writer's lock, then fails with ``StoreError/busy(path:)``. Other
    /// processes' saves arrive as soon as the store's files change;
    /// `pollInterval` seconds is only the fallback poll.
    ///
    ///     let container = try PersistentContainer(schema: schema, path: nil)   // in memory
    ///     let seeded = try PersistentContainer(schema: schema, path: url.path) { context in
    ///         Planet(context: context).name = "Mercury"
    ///     }
    public convenience init(
        schema: Schema, path: String?, readOnly: Bool = false, busyTimeout: Double = 5,
        pollInterval: Double = 1, seed: ((ObjectContext) throws -> Void)? = nil
    ) throws {
        try self.init(
            schema: schema, path: path, readOnly: readOnly, busyTimeout: busyTimeout, pollInterval: pollInterval,
            integrityCheckLimit: SQLiteBackend.integrityCheckLimit, seed: seed)
    }

    /// Opens the store `store` describes: a file (as ``init(schema:path:readOnly:busyTimeout:pollInterval:seed:)``),
    /// memory, or a database server (`.postgreSQL("postgresql://…")` from
    /// FolioPostgres). On a server the tables are made on first use and
    /// `seed` is saved in one write transaction, once however many
    /// containers open it at the same time; other containers' saves, from
    /// any machine, arrive as change sets as they do for a file.
    ///
    ///     let container = try PersistentContainer(schema: schema, store: .postgreSQL("postgresql:///folio?host=/run/pg"))
    public convenience init(
        schema: Schema, store: StoreDescription, readOnly: Bool = false, busyTimeout: Double = 5,
        pollInterval: Double = 1, seed: ((ObjectContext) throws -> Void)? = nil
    ) throws {
        try self.init(
            schema: schema, store: store, readOnly: readOnly, busyTimeout: busyTimeout, pollInterval: pollInterval,
            integrityCheckLimit: SQLiteBackend.integrityCheckLimit, seed: seed)
    }

    /// As the public initialiser, with the size up to which the whole file is checked at open.
    package convenience init(
        schema: Schema, path: String?, readOnly: Bool = false, busyTimeout: Double = 5, pollInterval: Double = 1,
        integrityCheckLimit: Int, seed: ((ObjectContext) throws -> Void)? = nil
    ) throws {
        try self.init(
            schema: schema, store: path.map(StoreDescription.file) ?? .inMemory, readOnly: readOnly, busyTimeout: busyTimeout,
            pollInterval: pollInterval, integrityCheckLimit: integrityCheckLimit, seed: seed)
    }

    /// `syncsAutomatically: false` makes a replica sync only at ``syncNow()`` from its first moment (see
    /// ``syncsAutomatically``): turned off after the container started, a first round may already be under way.
    package init(
        schema: Schema, store: StoreDescription, readOnly: Bool = false, busyTimeout: Double = 5, pollInterval: Double = 1,
        integrityCheckLimit: Int, syncsAutomatically: Bool = true, seed: ((ObjectContext) throws -> Void)? = nil
    ) throws {
        self.schema = schema
        self.store = store
        path = store.path
        let store = store.followingLinks()
        let timeout = Int32(busyTimeout * 1000)
        if case .replica(let path, let replica) = store.location {
            try Self.createReplicaIfNeeded(at: path, replica, schema: schema, readOnly: readOnly, busyTimeout: busyTimeout, seed: seed)
        } else if let path = store.path, !readOnly || seed != nil {
            try Self.createStoreIfNeeded(at: path, schema: schema, busyTimeout: busyTimeout, seed: seed)
        }
        // On a server, a store made now gets its seed in the transaction that makes its tables.
        let seedRows: (() throws -> SeedRows)? = seed.flatMap { seed in
            guard case .server = store.location else { return nil }
            return { try SeedRows.made(by: seed, for: schema, busyTimeoutMilliseconds: timeout) }
        }
        do {
            coordinator = try StoreCoordinator(
                schema: schema, store: store, readOnly: readOnly, busyTimeoutMilliseconds: timeout,
                integrityCheckLimit: integrityCheckLimit, seed: seedRows)
        } catch StoreError.migrationNeeded(let where_, let reason) {
            // A read-only open of a server store that is not there yet makes it (with its seed) first, as for a file.
            guard case .server = store.location, let seed else { throw StoreError.migrationNeeded(path: where_, reason: reason) }
            try Self.seedOnce(StoreCoordinator(schema: schema, store: store, busyTimeoutMilliseconds: timeout, seed: seedRows), seed)
            coordinator = try StoreCoordinator(
                schema: schema, store: store, readOnly: true, busyTimeoutMilliseconds: timeout,
                integrityCheckLimit: integrityCheckLimit)
        }
        if case .server = store.location, let seed, !readOnly { try Self.seedOnce(coordinator, seed) }
        viewContext = ObjectContext(coordinator: coordinator, delivery: .main)
        viewContext.name = "viewContext"
        syncStatus = coordinator.syncEngine.map { _ in SyncStatus() }
        coordinator.startFollowing(fallbackInterval: pollInterval)
        if let engine = coordinator.syncEngine, let status = syncStatus {
            engine.syncsAutomatically = syncsAutomatically
            engine.start { [weak status] state in Task { @MainActor in status?.update(state) } }
        }
    }

    /// A new context whose work runs on its own serial queue.
    ///
    ///     let background = container.newBackgroundContext()
    ///     try await background.perform { context in ...; try context.save() }
    public func newBackgroundContext() -> BackgroundContext {
        BackgroundContext(coordinator: coordinator)
    }

    /// Runs `body` on a fresh background context and returns its result.
    ///
    ///     try await container.performBackgroundTask { context in
    ///         Planet(context: context).name = "Vulcan"
    ///         try context.save()
    ///     }
    public func performBackgroundTask<T: Sendable>(_ body: @escaping @Sendable (ObjectContext) throws -> T) async throws -> T {
        let context = newBackgroundContext()
        return try await context.perform(body)
    }

    /// Reads other processes' saves right now and records how far this
    /// container has read (the store does both by itself; this never waits
    /// for another writer's lock). The change sets arrive as usual, on the
    /// main actor after this returns.
    ///
    ///     container.checkForExternalChanges()
    public func checkForExternalChanges() { coordinator.pollNow() }

    /// Drops other readers silent for `seconds` (a minute unless set), and
    /// says this container is alive often enough for that limit; for tests
    /// that stop a process for a few seconds instead of a minute.
    package func setReaderSilenceLimit(_ seconds: Double) { coordinator.setReaderSilenceLimit(seconds) }
}

/// A context whose work runs on a serial queue of its own (Core Data's
/// private-queue context): an ``ObjectContext`` used through `perform` and
/// `performAndWait`. It is not `Sendable`, so it stays with the code that
/// made it, and work reaches its queue only through those two methods;
/// using it directly traps at the first store access or change.
///
///     let bg = container.newBackgroundContext()
///     let count = try await bg.perform { try $0.count(for: FetchRequest<Planet>()) }
public final class BackgroundContext: ObjectContext {
    init(coordinator: StoreCoordinator) {
        super.init(coordinator: coordinator, delivery: .queue(DispatchQueue(label: "folio.store.background")))
    }
}
