import FolioStore
import Foundation

extension StoreDescription {
    /// A local replica, in the SQLite file at `replica`, of the store in the
    /// PostgreSQL database at `uri`. Fetches, faults, results controllers and
    /// saves run on the replica, online or not; a save is on disk when it
    /// returns, and a sync in the background pushes it to the server and
    /// pulls everyone else's saves (``PersistentContainer/syncStatus`` says
    /// how it goes). The first open copies the server's store, so the server
    /// must answer then; a replica made with another schema version is refused.
    ///
    ///     let container = try PersistentContainer(schema: schema,
    ///                                             store: .postgreSQL("postgresql:///folio?host=/run/pg", replica: "/var/lib/app/folio.sqlite"))
    public static func postgreSQL(_ uri: String, replica path: String) -> StoreDescription {
        .replica(path: path, PostgresReplica(server: PostgresServer(uri: uri)))
    }
}

/// A replica of a PostgreSQL store (see ``StoreReplica``).
struct PostgresReplica: StoreReplica {
    let postgres: PostgresServer

    init(server: PostgresServer) { postgres = server }

    var displayName: String { postgres.displayName }
    var server: any StoreServer { postgres }

    func hasFirstSynced(at path: String) throws -> Bool {
        try ReplicaFile.open(path, busyTimeoutMilliseconds: 5000).identity() != nil
    }

    func prepare(at path: String, schema: Schema, busyTimeoutMilliseconds: Int32) throws -> any SaveJournal {
        let file = try ReplicaFile.open(path, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        try file.connection.execute(ReplicaFile.tablesSQL)
        try file.migrateOutbox(author: "replica")
        try file.migrateServerVersions(schema)
        if let identity = try file.identity() {
            guard identity.server == displayName else {
                throw StoreError.cannotOpen(path: path, message: "it is a replica of \(identity.server), not of \(displayName)")
            }
            guard identity.schemaVersion == schema.version else {
                throw StoreError.otherSchema(
                    path: path, stored: "schema version \(identity.schemaVersion) (a replica)",
                    expected: "schema version \(schema.version)")
            }
            return ReplicaJournal(identity: identity)
        }
        let first = ReplicaFirstSync(
            postgres: postgres, displayName: displayName, path: path, file: file, schema: schema,
            busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        return ReplicaJournal(identity: try first.run())
    }

    func makeEngine(at path: String, schema: Schema, journal: any SaveJournal, busyTimeoutMilliseconds: Int32) throws
        -> any ReplicaSyncEngine
    {
        guard let journal = journal as? ReplicaJournal else { preconditionFailure("a replica's journal comes from its prepare") }
        return ReplicaEngine(
            server: postgres, path: path, schema: schema, journal: journal, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
    }
}
