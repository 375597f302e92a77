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
        return ReplicaJournal(identity: try firstSync(file, path: path, schema: schema, busyTimeoutMilliseconds: busyTimeoutMilliseconds))
    }

    /// Copies the server's store into the new replica at one history position and records who the replica is.
    private func firstSync(_ file: ReplicaFile, path: String, schema: Schema, busyTimeoutMilliseconds: Int32) throws -> ReplicaIdentity {
        let server = try PostgresBackend(
            server: postgres, namespace: schema.name, readOnly: false, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        defer { server.connection.close() }
        try server.prepare(schema)
        let (number, author) = try ReplicaSnapshot.register(server)
        // A reader of the server's history from before the copy's position on: no other reader's
        // acknowledgement trims what this replica's first pull needs (it would read the whole store again).
        _ = try PostgresHistory.register(
            server.connection, reader: author, lockKey: PostgresLock.key(schema.name ?? ""),
            waitMilliseconds: busyTimeoutMilliseconds)
        let identity = ReplicaIdentity(server: displayName, number: number, author: author, schemaVersion: schema.version)
        try file.write {
            let position = try ReplicaSnapshot.copy(from: server.connection, schema: schema, into: file)
            try file.setMetadata("replica_pulled", String(position))
            try file.setMetadata("replica_number", String(number))
            try file.setMetadata("replica_author", author)
            try file.setMetadata("replica_schema_version", String(schema.version))
            // Last: the file is a replica once this is there (a plain open is refused from then on).
            try file.setMetadata("replica_of", displayName)
        }
        return identity
    }

    func makeEngine(at path: String, schema: Schema, journal: any SaveJournal, busyTimeoutMilliseconds: Int32) throws
        -> any ReplicaSyncEngine
    {
        guard let journal = journal as? ReplicaJournal else { preconditionFailure("a replica's journal comes from its prepare") }
        return ReplicaEngine(
            server: postgres, path: path, schema: schema, journal: journal, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
    }
}
