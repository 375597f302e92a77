import FolioStore
import Foundation

extension PostgresBackend {
    /// Creates the namespace's tables or migrates them to `schema` by
    /// SQLite's lightweight rules (new entities, columns, relationships,
    /// indexes; anything else is a clear error), all in one transaction
    /// under the write lock. A database that holds tables but no Folio
    /// store is another program's: it is refused before anything is written.
    func prepare(_ schema: Schema) throws {
        if isReadOnly { return try checkNeedsNoMigration(schema) }
        try beginWriting(until: deadlineFromNow)
        do {
            try refuseForeignDatabase()
            if let namespace { try connection.execute("CREATE SCHEMA IF NOT EXISTS \(quote(namespace))") }
            try migrate(to: schema)
            try connection.execute("COMMIT")
        } catch {
            abandonWriting()
            throw error
        }
    }

    /// Throws unless the database is empty of tables or Folio already keeps a store in it.
    private func refuseForeignDatabase() throws {
        let tables = try connection.query("""
            SELECT table_schema, table_name FROM information_schema.tables
            WHERE table_schema NOT IN ('pg_catalog', 'information_schema') ORDER BY table_schema, table_name
            """)
        guard tables.rowCount > 0 else { return }
        var names: [String] = []
        for row in 0..<tables.rowCount {
            guard case .text(let name) = tables.value(row: row, column: 1) else { continue }
            if name == "folio_metadata" { return }
            names.append(name)
        }
        throw StoreError.notAFolioStore(path: path, reason: "the database holds another program's tables: "
                                        + names.prefix(3).joined(separator: ", "))
    }

    private func migrate(to schema: Schema) throws {
        try connection.execute("""
            CREATE TABLE IF NOT EXISTS folio_metadata (key TEXT PRIMARY KEY, value TEXT NOT NULL);
            CREATE TABLE IF NOT EXISTS folio_sequence (entity TEXT PRIMARY KEY, next BIGINT NOT NULL);
            CREATE TABLE IF NOT EXISTS folio_history (position BIGSERIAL PRIMARY KEY, author TEXT NOT NULL, changes TEXT NOT NULL);
            CREATE TABLE IF NOT EXISTS folio_readers (reader TEXT PRIMARY KEY, position BIGINT NOT NULL, seen DOUBLE PRECISION NOT NULL)
            """)
        let (stored, storedJSON) = try storedSchema()
        try connection.query("INSERT INTO folio_metadata (key, value) VALUES ('store_identifier', $1) ON CONFLICT (key) DO NOTHING",
                             [.text(UUID().uuidString)])
        if let stored { try StoreFile.checkSchema(stored, of: path, against: schema) }
        if let stored, stored.version > schema.version {
            throw StoreError.newerSchema(stored: stored.version, current: schema.version)
        }
        var tables: [String: [String: String]] = [:]
        // New tables first, their references after: a reference needs its target's table.
        var created: [EntityDescription] = []
        for entity in schema.entities where stored?.tables[entity.name] == nil {
            let columns = entity.storedColumns
            let defs = ["id BIGINT PRIMARY KEY"] + columns.keys.sorted().map { columnDefinition(entity, $0, columns[$0]!, references: false) }
            try connection.execute("CREATE TABLE IF NOT EXISTS \(quote(entity.name)) (\(defs.joined(separator: ", ")))")
            created.append(entity)
        }
        for entity in created {
            for p in entity.toOnes {
                try connection.execute("""
                    ALTER TABLE \(quote(entity.name)) ADD FOREIGN KEY (\(quote(p.name)))
                    REFERENCES \(quote(p.target.name))(id) DEFERRABLE INITIALLY DEFERRED
                    """)
            }
        }
        for entity in schema.entities {
            let columns = entity.storedColumns
            tables[entity.name] = columns
            if let existing = stored?.tables[entity.name] { try addMissingColumns(entity, columns, existing) }
            try createIndexes(entity)
            try createJoinTables(entity)
        }
        try connection.execute(PostgresFolding.functionSQL(icu: try hasICU()))
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let record = StoredSchema(name: schema.name ?? stored?.name, version: schema.version, tables: tables)
        let json = String(decoding: try encoder.encode(record), as: UTF8.self)
        if json != storedJSON {
            try connection.query("INSERT INTO folio_metadata (key, value) VALUES ('schema', $1) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
                                 [.text(json)])
        }
    }

    private func hasICU() throws -> Bool {
        try connection.scalar("SELECT 1 FROM pg_collation WHERE collname = 'und-x-icu'") != nil
    }

    private func storedSchema() throws -> (StoredSchema?, String) {
        guard case .text(let json)? = try connection.scalar("SELECT value FROM folio_metadata WHERE key = 'schema'") else { return (nil, "") }
        return (try JSONDecoder().decode(StoredSchema.self, from: Data(json.utf8)), json)
    }

    /// For a read-only connection: the store must be there and need no migration.
    private func checkNeedsNoMigration(_ schema: Schema) throws {
        let exists = try connection.scalar("SELECT to_regclass('folio_metadata') IS NOT NULL")
        guard case .integer(1)? = exists, let stored = try storedSchema().0 else {
            throw StoreError.migrationNeeded(path: path, reason: "it has no Folio tables yet")
        }
        try StoreFile.checkSchema(stored, of: path, against: schema)
        if stored.version > schema.version { throw StoreError.newerSchema(stored: stored.version, current: schema.version) }
        for entity in schema.entities {
            for (column, type) in entity.storedColumns.sorted(by: { $0.key < $1.key }) where stored.tables[entity.name]?[column] != type {
                throw StoreError.migrationNeeded(path: path, reason: "\(entity.name).\(column) is not stored yet")
            }
        }
    }

    /// The server's type for a recorded column type.
    private static func serverType(_ type: String) -> String {
        switch type {
        case "INTEGER": "BIGINT"
        case "REAL": "DOUBLE PRECISION"
        case "TEXT": "TEXT COLLATE \"C\""
        default: "BYTEA"
        }
    }

    private func columnDefinition(_ entity: EntityDescription, _ name: String, _ type: String, references: Bool = true) -> String {
        // Rows stored before versions existed start at the first version.
        if name == RowVersion.column { return "\(RowVersion.column) BIGINT NOT NULL DEFAULT \(RowVersion.first)" }
        var def = "\(quote(name)) \(Self.serverType(type))"
        if let p = entity.byName[name] {
            if p.isToOne {
                guard references else { return def }
                def += " REFERENCES \(quote(p.target.name))(id) DEFERRABLE INITIALLY DEFERRED"
            } else if let d = p.defaultValue, !d.isNull {
                def += " DEFAULT \(Self.literal(d))"
            }
        }
        return def
    }

    private func addMissingColumns(_ entity: EntityDescription, _ columns: [String: String], _ existing: [String: String]) throws {
        for name in try entity.columnsToAdd(columns, existing: existing) {
            try connection.execute("ALTER TABLE \(quote(entity.name)) ADD COLUMN \(columnDefinition(entity, name, columns[name]!))")
        }
    }

    private func createIndexes(_ entity: EntityDescription) throws {
        for sql in entity.indexStatements { try connection.execute(sql) }
    }

    private func createJoinTables(_ entity: EntityDescription) throws {
        for p in entity.toManys {
            guard case .joinTable(let table, "a", _, _) = p.storage else { continue }
            try connection.execute("""
                CREATE TABLE IF NOT EXISTS \(quote(table)) (
                  a BIGINT NOT NULL REFERENCES \(quote(entity.name))(id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED,
                  b BIGINT NOT NULL REFERENCES \(quote(p.target.name))(id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED,
                  a_order BIGINT, b_order BIGINT, PRIMARY KEY (a, b));
                CREATE INDEX IF NOT EXISTS \(quote(table + "_b")) ON \(quote(table))(b)
                """)
        }
    }

    /// A literal for a column DEFAULT (schema values, not user input).
    private static func literal(_ v: StoreValue) -> String {
        switch v {
        case .null: "NULL"
        case .integer(let i): String(i)
        case .real(let d): d.isFinite ? "\(d)" : "'\(d.isNaN ? "NaN" : d < 0 ? "-Infinity" : "Infinity")'"
        case .text(let s): "'" + s.replacingOccurrences(of: "'", with: "''") + "'"
        case .blob(let d): "'\\x" + d.map { String(format: "%02X", $0) }.joined() + "'::bytea"
        }
    }
}
