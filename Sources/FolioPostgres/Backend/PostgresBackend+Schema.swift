import FolioStore
import Foundation

extension PostgresBackend {
    /// Creates the namespace's tables or migrates them to `schema` by
    /// SQLite's lightweight rules (new entities, columns, relationships,
    /// indexes; anything else is a clear error), all in one transaction
    /// under the write lock. A namespace that holds tables but no Folio
    /// store is another program's, and so is a database that holds tables
    /// and no Folio store anywhere: both are refused before anything is
    /// written. So is a new namespace beside this program's store kept
    /// under another name, which would hide that store's data.
    func prepare(_ schema: Schema) throws { try prepare(schema, seed: nil) }

    /// As ``prepare(_:)``; a store made now gets `seed`'s rows and its
    /// seeded mark in the same transaction, so no one ever sees it (and no
    /// killed first launch leaves it) without them.
    func prepare(_ schema: Schema, seed: (() throws -> SeedRows)?) throws {
        if isReadOnly { return try checkNeedsNoMigration(schema) }
        // A store this build prepared for this schema needs nothing: no lock, no DDL.
        if try isPrepared(for: schema) { return }
        try beginWriting(until: deadlineFromNow)
        do {
            try checkOwnership(schema)
            if let namespace { try connection.execute("CREATE SCHEMA IF NOT EXISTS \(quote(namespace))") }
            let creating = try connection.scalar("SELECT to_regclass('folio_metadata') IS NULL") == .integer(1)
            try migrate(to: schema)
            if creating, let seed {
                try insert(try seed())
                try recordSeeded()
            }
            try prepareIDSequences(schema)
            try recordPrepared(schema)
            try connection.execute("COMMIT")
        } catch {
            abandonWriting()
            throw error
        }
    }

    /// Every table of the database outside PostgreSQL's own schemas, by namespace.
    private func tablesByNamespace() throws -> [String: Set<String>] {
        let result = try connection.query(
            """
            SELECT table_schema, table_name FROM information_schema.tables
            WHERE table_schema NOT IN ('pg_catalog', 'information_schema')
            """)
        var tables: [String: Set<String>] = [:]
        for row in 0..<result.rowCount {
            guard case .text(let space) = result.value(row: row, column: 0), case .text(let name) = result.value(row: row, column: 1) else {
                continue
            }
            tables[space, default: []].insert(name)
        }
        return tables
    }

    /// Throws unless Folio may write `schema`'s store here (see ``prepare(_:)``).
    private func checkOwnership(_ schema: Schema) throws {
        let all = try tablesByNamespace()
        let home: String
        if let namespace {
            home = namespace
        } else if case .text(let current)? = try connection.scalar("SELECT current_schema()") {
            home = current
        } else {
            home = "public"
        }
        let mine = all[home] ?? []
        let foreign = mine.filter { !$0.hasPrefix("folio_") }.sorted()
        if mine.contains("folio_metadata") {
            // A Folio store: its record is checked in the migration; without one only Folio's own tables may be there.
            if try storedSchema() == nil, !foreign.isEmpty {
                throw StoreError.notAFolioStore(
                    path: path,
                    reason: "the schema \(home) holds another program's tables: "
                        + foreign.prefix(3).joined(separator: ", "))
            }
            return
        }
        if !mine.isEmpty {
            throw StoreError.notAFolioStore(
                path: path,
                reason: "the schema \(home) holds another program's tables: "
                    + mine.sorted().prefix(3).joined(separator: ", "))
        }
        // A new store. Where does this program's data already live, if anywhere?
        let stores = all.filter { $0.value.contains("folio_metadata") }.keys.sorted()
        for space in stores {
            // A store this role cannot read is not one it could be hiding.
            guard let stored = (try? storedSchema(in: space)) ?? nil else { continue }
            let entities = Set(schema.entities.map(\.name))
            let same = stored.name == nil ? !entities.isDisjoint(with: stored.tables.keys) : stored.name == schema.name
            if same {
                throw StoreError.notAFolioStore(
                    path: path,
                    reason: "this program's store is in the PostgreSQL schema \(space)"
                        + (stored.name.map { " under the name \($0)" } ?? " without a name")
                        + "; opening it as " + (schema.name.map { "the \($0) schema" } ?? "an unnamed schema")
                        + " would start an empty store beside it. Open it with the name it was made with, or move its tables first")
            }
        }
        let others = all.filter { !$0.value.contains("folio_metadata") }.flatMap { $0.value }.filter { !$0.hasPrefix("folio_") }
        if stores.isEmpty, !others.isEmpty {
            throw StoreError.notAFolioStore(
                path: path,
                reason: "the database holds another program's tables: "
                    + others.sorted().prefix(3).joined(separator: ", "))
        }
    }

    private func migrate(to schema: Schema) throws {
        try connection.execute(
            """
            CREATE TABLE IF NOT EXISTS folio_metadata (key TEXT PRIMARY KEY, value TEXT NOT NULL);
            CREATE TABLE IF NOT EXISTS folio_sequence (entity TEXT PRIMARY KEY, next BIGINT NOT NULL);
            CREATE TABLE IF NOT EXISTS folio_readers (
              reader TEXT PRIMARY KEY, position BIGINT NOT NULL, seen DOUBLE PRECISION NOT NULL, silence DOUBLE PRECISION)
            """)
        // How long each reader may stay silent (a store made before kept none). Looked up first: the ALTER would lock
        // the table against every process's acknowledgements at each open.
        if try connection.scalar(
            "SELECT 1 FROM pg_attribute WHERE attrelid = 'folio_readers'::regclass AND attname = 'silence' AND NOT attisdropped") == nil
        {
            try connection.execute("ALTER TABLE folio_readers ADD COLUMN IF NOT EXISTS silence DOUBLE PRECISION")
        }
        try prepareHistory()
        let stored = try storedSchema()
        try connection.query(
            "INSERT INTO folio_metadata (key, value) VALUES ('store_identifier', $1) ON CONFLICT (key) DO NOTHING",
            [.text(UUID().uuidString)])
        if let stored { try StoreFile.checkSchema(stored, of: path, against: schema) }
        if let stored, stored.version > schema.version {
            throw StoreError.newerSchema(stored: stored.version, current: schema.version)
        }
        // What the tables really have, not what the record says: columns and tables another build added are adopted.
        var existing: [String: [String: String]] = [:]
        for entity in schema.entities {
            existing[entity.name] = try tableColumns(entity.name, recorded: stored?.tables[entity.name])
        }
        // New tables first, their references after: a reference needs its target's table.
        var created: [EntityDescription] = []
        for entity in schema.entities where existing[entity.name]?.isEmpty != false {
            let columns = entity.storedColumns
            let defs =
                ["id BIGINT PRIMARY KEY"] + columns.keys.sorted().map { columnDefinition(entity, $0, columns[$0]!, references: false) }
            try connection.execute("CREATE TABLE \(quote(entity.name)) (\(defs.joined(separator: ", ")))")
            created.append(entity)
        }
        for entity in created {
            for p in entity.toOnes {
                try connection.execute(
                    """
                    ALTER TABLE \(quote(entity.name)) ADD FOREIGN KEY (\(quote(p.name)))
                    REFERENCES \(quote(p.target.name))(id) DEFERRABLE INITIALLY DEFERRED
                    """)
            }
        }
        for entity in schema.entities {
            if let columns = existing[entity.name], !columns.isEmpty { try addMissingColumns(entity, entity.storedColumns, columns) }
            try createIndexes(entity)
            try createJoinTables(entity)
        }
        try connection.execute(PostgresFolding.functionSQL(icu: try hasICU()))
        let record = StoredSchema.recording(schema, over: stored)
        if record != stored {
            try connection.query(
                "INSERT INTO folio_metadata (key, value) VALUES ('schema', $1) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
                [.text(record.json)])
        }
    }

    /// The columns the table really has in this namespace (without `id`),
    /// each with its recorded type where the record knows it, else the one
    /// it would be recorded as; empty when there is no such table.
    private func tableColumns(_ table: String, recorded: [String: String]?) throws -> [String: String] {
        let result = try connection.query(
            """
            SELECT column_name, data_type FROM information_schema.columns
            WHERE table_schema = current_schema() AND table_name = $1 AND column_name <> 'id'
            """, [.text(table)])
        var columns: [String: String] = [:]
        for row in 0..<result.rowCount {
            guard case .text(let name) = result.value(row: row, column: 0), case .text(let type) = result.value(row: row, column: 1) else {
                continue
            }
            columns[name] = recorded?[name] ?? Self.recordedType(type)
        }
        return columns
    }

    /// The recorded type for a server column type (the inverse of ``serverType(_:)``).
    private static func recordedType(_ serverType: String) -> String {
        switch serverType {
        case "bigint", "integer", "smallint": "INTEGER"
        case "double precision", "real", "numeric": "REAL"
        case "text", "character varying": "TEXT"
        default: "BLOB"
        }
    }

    /// Writes a seed's rows as they are (their IDs, versions and the ID sequence with them).
    private func insert(_ seed: SeedRows) throws {
        for table in seed.tables {
            try insertMany(into: table.name, columns: table.columns, count: table.rows.count) { i, values in values += table.rows[i] }
        }
    }

    private func hasICU() throws -> Bool {
        try connection.scalar("SELECT 1 FROM pg_collation WHERE collname = 'und-x-icu'") != nil
    }

    /// The schema recorded in this namespace's store (or in the namespace `space`), if any.
    private func storedSchema(in space: String? = nil) throws -> StoredSchema? {
        let table = space.map { quote($0) + ".folio_metadata" } ?? "folio_metadata"
        guard case .text(let json)? = try connection.scalar("SELECT value FROM \(table) WHERE key = 'schema'") else { return nil }
        return try JSONDecoder().decode(StoredSchema.self, from: Data(json.utf8))
    }

    /// For a read-only connection: the store must be there and need no migration.
    private func checkNeedsNoMigration(_ schema: Schema) throws {
        let exists = try connection.scalar("SELECT to_regclass('folio_metadata') IS NOT NULL")
        guard case .integer(1)? = exists, let stored = try storedSchema() else {
            throw StoreError.migrationNeeded(path: path, reason: "it has no Folio tables yet")
        }
        try StoreFile.checkSchema(stored, of: path, against: schema)
        if stored.version > schema.version { throw StoreError.newerSchema(stored: stored.version, current: schema.version) }
        if try !isHistoryMarked() { throw StoreError.migrationNeeded(path: path, reason: "its history is in an older form") }
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
            try connection.execute(
                """
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
