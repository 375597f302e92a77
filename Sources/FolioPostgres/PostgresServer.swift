import FolioStore

extension StoreDescription {
    /// A store in a PostgreSQL database: any libpq connection URI or
    /// string, e.g. `postgresql://ann@db.example:5432/folio` or, over a Unix
    /// socket, `postgresql:///folio?host=/run/pg&port=5433&user=me`. A named
    /// schema keeps its tables in a PostgreSQL schema of that name, so
    /// several apps can share one database; an unnamed one uses the
    /// connection's own (`public` unless the URI says otherwise).
    ///
    ///     let container = try PersistentContainer(schema: schema, store: .postgreSQL("postgresql:///folio?host=/tmp"))
    public static func postgreSQL(_ uri: String) -> StoreDescription {
        .server(PostgresServer(uri: uri))
    }

    /// Whether `text` is a PostgreSQL connection URI (`postgresql://` or `postgres://`).
    ///
    ///     StoreDescription.isPostgreSQLURI("postgresql:///folio")   // true
    public static func isPostgreSQLURI(_ text: String) -> Bool {
        text.hasPrefix("postgresql://") || text.hasPrefix("postgres://")
    }
}

/// Opens connections to one PostgreSQL database for a container.
struct PostgresServer: StoreServer {
    let uri: String

    var displayName: String { PGConnection.redacted(uri) }

    /// A container's connection: it reads through the process's pool and
    /// opens a session of its own only to write.
    func connect(schema: Schema, readOnly: Bool, busyTimeoutMilliseconds: Int32) throws -> StoreBackend {
        try PostgresBackend(
            server: self, namespace: schema.name, readOnly: readOnly, busyTimeoutMilliseconds: busyTimeoutMilliseconds, pooledReads: true)
    }

    /// A new connection whose unqualified names resolve in `namespace`
    /// (created by the store's preparation; until then nothing resolves).
    /// `session` runs after the settings on every (re)connect, so what it
    /// sets up (a LISTEN) holds for each new session, whoever reconnects.
    func openConnection(
        namespace: String?, readOnly: Bool, lazily: Bool = false, session: ((PGConnection) throws -> Void)? = nil
    ) throws -> PGConnection {
        try PGConnection(uri: uri, statementTimeoutMilliseconds: uri.contains("statement_timeout") ? nil : 30_000, lazily: lazily) {
            connection in
            var settings: [String] = []
            if let namespace { settings.append("SET search_path TO \(quote(namespace))") }
            if readOnly { settings.append("SET default_transaction_read_only = on") }
            if !settings.isEmpty { try connection.execute(settings.joined(separator: "; ")) }
            if let namespace { connection.namespaceProblem = try Self.namespaceProblem(namespace, on: connection) }
            try session?(connection)
        }
    }

    /// Why `namespace` cannot be used by the connection's role, or nil: a
    /// schema the role has no USAGE on drops out of the search path, and
    /// the server then says only that no schema was selected.
    static func namespaceProblem(_ namespace: String, on connection: PGConnection) throws -> String? {
        let result = try connection.query(
            """
            SELECT current_user, has_schema_privilege(oid, 'USAGE') FROM pg_namespace WHERE nspname = $1
            """, [.text(namespace)])
        guard result.rowCount > 0, case .integer(0) = result.value(row: 0, column: 1),
            case .text(let role) = result.value(row: 0, column: 0)
        else {
            return nil
        }
        return "the role \(quote(role)) has no USAGE privilege on the schema \(quote(namespace)) that holds the store; "
            + "its owner can grant it with GRANT USAGE ON SCHEMA \(quote(namespace)) TO \(quote(role))"
    }

    /// The channel a namespace's saves are announced on (names fold to lowercase and are capped at 63 bytes).
    static func channel(_ namespace: String?) -> String {
        let hash = PostgresLock.key(namespace ?? "")
        return "folio_\(String(UInt64(bitPattern: hash), radix: 16))"
    }
}

/// The advisory locks of a namespace's writers. The write lock (``key(_:)``):
/// a save holds it shared from its first statement to its commit, so saves
/// write their rows side by side; a write transaction (`performWrite`), a
/// batch request, a migration or a replica's push holds it exclusively, so
/// a check made inside one still holds when it commits. History rows take
/// no lock: their order comes from their marks (see ``PostgresHistory``).
enum PostgresLock {
    /// A 64-bit key for a namespace (FNV-1a), stable across processes and machines.
    static func key(_ namespace: String) -> Int64 { hash("folio:" + namespace) }

    private static func hash(_ text: String) -> Int64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
        return Int64(bitPattern: hash)
    }
}

/// Connection URIs as messages show them.
public enum PGDisplay {
    /// `uri` without its password.
    ///
    ///     PGDisplay.redacted("postgresql://ann:secret@db/folio")   // "postgresql://ann@db/folio"
    public static func redacted(_ uri: String) -> String { PGConnection.redacted(uri) }
}
