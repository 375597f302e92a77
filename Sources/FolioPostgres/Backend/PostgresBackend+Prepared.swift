import FolioStore

extension PostgresBackend {
    /// What this build's preparation leaves for `schema`: the schema's
    /// record, its indexes and join tables, the ID sequences, the folding
    /// function and the history's and readers' forms, as one short hash. A store whose
    /// mark matches needs nothing from ``prepare(_:seed:)`` (see ``isPrepared(for:)``).
    static func preparedMark(_ schema: Schema) -> String {
        var parts = ["history: marked, seq", "readers: silence", StoredSchema.recording(schema, over: nil).json]
        parts += [PostgresFolding.functionSQL(icu: true), PostgresFolding.functionSQL(icu: false)]
        for entity in schema.entities.sorted(by: { $0.name < $1.name }) {
            parts.append(idSequence(entity.name))
            parts += entity.indexStatements
            for p in entity.toManys {
                if case .joinTable(let table, "a", _, _) = p.storage { parts.append("\(table) \(entity.name) \(p.target.name)") }
            }
        }
        return String(UInt64(bitPattern: PostgresLock.key(parts.joined(separator: "\n"))), radix: 16)
    }

    /// Whether the store was prepared by this build for `schema` and its
    /// history is not ahead of the server's transaction IDs: then opening
    /// it needs neither the write lock nor any DDL. Read without a lock, so
    /// many containers opening at once do not queue behind each other's
    /// schema checks (each ran dozens of statements holding the lock).
    func isPrepared(for schema: Schema) throws -> Bool {
        guard
            try connection.scalar("SELECT to_regclass('folio_metadata') IS NOT NULL AND to_regclass('folio_history') IS NOT NULL")
                == .integer(1)
        else { return false }
        let current = try connection.scalar(
            """
            SELECT COALESCE((SELECT value FROM folio_metadata WHERE key = 'prepared') = \(Self.markSQL), false)
                   AND GREATEST((SELECT max(position) FROM folio_history), (SELECT max(position) FROM folio_readers), \(PostgresHistory.trimmedSQL))
                       <= pg_snapshot_xmax(pg_current_snapshot())::text::bigint
            """, [.text(Self.preparedMark(schema))])
        return current == .integer(1)
    }

    /// Notes, inside the preparing transaction, that this build prepared the store for `schema`.
    func recordPrepared(_ schema: Schema) throws {
        try connection.query(
            "INSERT INTO folio_metadata (key, value) VALUES ('prepared', \(Self.markSQL)) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
            [.text(Self.preparedMark(schema))])
    }

    /// The mark as kept: this build's (`$1`) with the schema record's digest, so a record
    /// changed since (another build's migration) makes the next opening prepare again.
    private static let markSQL = "$1 || ' ' || md5(COALESCE((SELECT value FROM folio_metadata WHERE key = 'schema'), ''))"
}
