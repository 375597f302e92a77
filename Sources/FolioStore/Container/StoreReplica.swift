/// A local replica of a server's store, as FolioStore sees it: the replica
/// is an ordinary SQLite store file, and this is what it adds. FolioPostgres
/// implements it (`StoreDescription.postgreSQL(_:replica:)`); nothing above
/// FolioStore knows a store is a replica.
package protocol StoreReplica: Sendable {
    /// The server the replica copies, for messages.
    var displayName: String { get }
    /// The server itself (a new replica's seed is saved there, once, as for any container on it).
    var server: any StoreServer { get }
    /// Whether the file at `path` already holds a synced replica.
    func hasFirstSynced(at path: String) throws -> Bool
    /// Makes the Folio store file at `path` a replica: its first sync when it
    /// has none (the server must answer then), else checks that it is a
    /// replica of this server and schema. Returns what its saves write beside
    /// their rows.
    func prepare(at path: String, schema: Schema, busyTimeoutMilliseconds: Int32) throws -> any SaveJournal
    /// The sync engine of one container on the replica at `path`; it does nothing until started.
    func makeEngine(
        at path: String, schema: Schema, journal: any SaveJournal,
        busyTimeoutMilliseconds: Int32
    ) throws -> any ReplicaSyncEngine
}

/// What a replica's saves write beside their rows: called by the SQLite
/// backend inside each save's transaction, so a save and its record commit
/// or roll back together.
package protocol SaveJournal: Sendable {
    /// The row IDs this store hands out to new objects (IDs of rows made
    /// elsewhere lie outside it, so they never clash).
    var rowIDs: Range<Int64> { get }
    /// Records `batch` (its new objects at `permanent`, its history text
    /// `history`) on `connection`, inside the save's open transaction and
    /// before its writes, so the rows as they were are still there to read.
    /// Returns what the save's history row keeps for the replica (its
    /// `outbox` column; the row is written even when `history` is empty).
    func record(_ batch: SaveBatch, permanent: [ObjectID], history: String, on connection: SQLiteConnection) throws -> String?
    /// Records a batch request's writes on `connection`, inside its open
    /// transaction after they ran: `outcome` says what it wrote, `before`
    /// the values an update's rows held before it (by row ID, in the order
    /// of its keys). Returns what its history row keeps, as above.
    func record(_ write: BatchWrite, _ outcome: BatchOutcome, before: [Int64: [StoreValue]], on connection: SQLiteConnection) throws
        -> String?
    /// A save recorded on this process's connections has committed.
    func didCommit()
}

/// The background sync of one container on a replica: it owns its server
/// connection and runs on a queue of its own, never on the main actor.
package protocol ReplicaSyncEngine: AnyObject, Sendable {
    /// Starts syncing; `report` hears every change of the sync's state (on the engine's queue).
    func start(report: @escaping @Sendable (SyncStatus.State) -> Void)
    /// Pushes what waits, then pulls once; throws when the server cannot be reached.
    func syncNow() async throws -> SyncReport
    /// How a pushed change that meets a newer server version is resolved (`.error` until set).
    var mergePolicy: MergePolicy { get set }
    /// Whether it syncs by itself (true unless set); when false only ``syncNow()`` syncs.
    var syncsAutomatically: Bool { get set }
    /// Stops syncing and closes its connections before it returns.
    func stop()
}
