extension PersistentContainer {
    /// Makes the replica file at `path` (an empty store, then its first
    /// sync) unless it is there; a new replica's `seed` is saved on the
    /// server, once, as for any container on it.
    static func createReplicaIfNeeded(
        at path: String, _ replica: any StoreReplica, schema: Schema, readOnly: Bool,
        busyTimeout: Double, seed: ((ObjectContext) throws -> Void)?
    ) throws {
        if readOnly { return }
        try createStoreIfNeeded(at: path, schema: schema, busyTimeout: busyTimeout, seed: nil)
        guard let seed, try !replica.hasFirstSynced(at: path) else { return }
        try seedOnce(
            StoreCoordinator(schema: schema, store: .server(replica.server), busyTimeoutMilliseconds: Int32(busyTimeout * 1000)), seed)
    }

    /// On a replica: pushes the saves waiting for the server, then pulls
    /// the server's other changes once, and says what it did. The sync does
    /// both by itself in the background; this is for a command that syncs
    /// and exits, or a "Sync now" button. Throws ``StoreError/offline(store:message:)``
    /// when the server cannot be reached (the saves keep waiting), and
    /// ``StoreError/notOnReplica(path:what:)`` on a container that is not a replica.
    ///
    ///     let report = try await container.syncNow()
    ///     print("pushed \(report.pushed), pulled \(report.pulled)")
    public func syncNow() async throws -> SyncReport {
        guard let engine = coordinator.syncEngine else {
            throw StoreError.notOnReplica(path: store.displayName, what: "syncing (the store is not a replica)")
        }
        return try await engine.syncNow()
    }

    /// How a replica resolves a pushed change that meets a newer server
    /// version, property by property, as a save between two processes does
    /// (``MergePolicy``); `.error`, the default, leaves the change waiting
    /// and lists the conflict in ``syncStatus``.
    ///
    ///     container.syncMergePolicy = .mergeByPropertyObjectTrump
    /// Whether a replica syncs by itself in the background (the default);
    /// when false it syncs only at ``syncNow()``, for tests that decide the
    /// order in which replicas meet the server.
    /// A container made with it off (``init(schema:store:syncsAutomatically:)``) never syncs by itself.
    package var syncsAutomatically: Bool {
        get { coordinator.syncEngine?.syncsAutomatically ?? false }
        set { coordinator.syncEngine?.syncsAutomatically = newValue }
    }

    /// Opens a replica that syncs only at ``syncNow()`` from the start, for
    /// tests that decide when each replica meets the server.
    ///
    ///     let replica = try PersistentContainer(schema: schema, store: .postgreSQL(uri, replica: path), syncsAutomatically: false)
    package convenience init(schema: Schema, store: StoreDescription, syncsAutomatically: Bool) throws {
        try self.init(
            schema: schema, store: store, integrityCheckLimit: SQLiteBackend.integrityCheckLimit, syncsAutomatically: syncsAutomatically)
    }

    /// As the public initialiser, with automatic sync chosen: a command that
    /// syncs at its own moments opens its replica with it off, so that its
    /// ``syncNow()`` reports every push and pull the process makes.
    package convenience init(
        schema: Schema, store: StoreDescription, readOnly: Bool, syncsAutomatically: Bool,
        seed: ((ObjectContext) throws -> Void)?
    ) throws {
        try self.init(
            schema: schema, store: store, readOnly: readOnly, integrityCheckLimit: SQLiteBackend.integrityCheckLimit,
            syncsAutomatically: syncsAutomatically, seed: seed)
    }

    /// How a replica settles a pushed change that meets a newer server value,
    /// property by property, as a context's ``ObjectContext/mergePolicy`` does
    /// between two saves. `.error` (the default) keeps the change waiting and
    /// lists the conflict in ``syncStatus``.
    ///
    ///     container.syncMergePolicy = .mergeByPropertyObjectTrump
    public var syncMergePolicy: MergePolicy {
        get { coordinator.syncEngine?.mergePolicy ?? .error }
        set { coordinator.syncEngine?.mergePolicy = newValue }
    }
}
