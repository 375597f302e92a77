import Foundation

extension SQLiteBackend {
    /// Creates the store's tables, or migrates an existing store to `schema`
    /// (lightweight: new entities, new columns, new relationships, new
    /// indexes), recording Folio's application id and the schema's name. A
    /// read-only store is only checked: it must need no migration.
    func prepare(_ schema: Schema) throws {
        if isReadOnly { return try checkNeedsNoMigration(schema) }
        try connection.execute("BEGIN IMMEDIATE")
        do {
            try migrate(to: schema)
            try connection.execute("COMMIT")
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }

    private func migrate(to schema: Schema) throws {
        try connection.execute(
            """
            CREATE TABLE IF NOT EXISTS folio_metadata (key TEXT PRIMARY KEY, value TEXT NOT NULL);
            CREATE TABLE IF NOT EXISTS folio_sequence (entity TEXT PRIMARY KEY, next INTEGER NOT NULL);
            CREATE TABLE IF NOT EXISTS folio_history (position INTEGER PRIMARY KEY AUTOINCREMENT, author TEXT NOT NULL, changes TEXT NOT NULL);
            CREATE TABLE IF NOT EXISTS folio_readers (reader TEXT PRIMARY KEY, position INTEGER NOT NULL, seen REAL NOT NULL);
            """)
        let stored = try storedSchema()
        // Writes nothing when the store has one.
        try connection.run("INSERT OR IGNORE INTO folio_metadata (key, value) VALUES ('store_identifier', ?)", [.text(UUID().uuidString)])
        // Checked again inside the transaction, on what is really stored, before anything is written.
        if let stored { try StoreFile.checkSchema(stored, of: path, against: schema) }
        if case .integer(let id)? = try connection.rows("PRAGMA application_id").first?.first, id != Int64(StoreFile.applicationID) {
            try connection.execute("PRAGMA application_id = \(StoreFile.applicationID)")
        }
        let code = StoreFile.nameCode(schema.name ?? stored?.name)
        if case .integer(let old)? = try connection.rows("PRAGMA user_version").first?.first, old != Int64(code) {
            try connection.execute("PRAGMA user_version = \(code)")
        }
        if let stored, stored.version > schema.version {
            throw StoreError.newerSchema(stored: stored.version, current: schema.version)
        }
        for entity in schema.entities {
            let columns = Self.columns(of: entity)
            // What the table really has, not what the record says: a column another build added is adopted.
            let existing = try tableColumns(entity.name, recorded: stored?.tables[entity.name])
            if existing.isEmpty {
                let defs =
                    ["id INTEGER PRIMARY KEY"]
                    + columns.keys.sorted().map { name in
                        columnDefinition(entity, name, columns[name]!)
                    }
                try connection.execute("CREATE TABLE \(quote(entity.name)) (\(defs.joined(separator: ", ")))")
            } else {
                try addMissingColumns(entity, columns, existing)
            }
            try createIndexes(entity)
            try createJoinTables(entity)
        }
        let record = StoredSchema.recording(schema, over: stored)
        if record != stored {
            try connection.run("INSERT OR REPLACE INTO folio_metadata (key, value) VALUES ('schema', ?)", [.text(record.json)])
        }
    }

    /// The schema recorded in the file, if any.
    private func storedSchema() throws -> StoredSchema? {
        guard case .text(let json)? = try connection.rows("SELECT value FROM folio_metadata WHERE key = 'schema'").first?.first else {
            return nil
        }
        return try JSONDecoder().decode(StoredSchema.self, from: Data(json.utf8))
    }

    /// The columns the table really has (without `id`), each with its
    /// recorded type where the record knows it, else its declared one;
    /// empty when there is no such table.
    private func tableColumns(_ table: String, recorded: [String: String]?) throws -> [String: String] {
        var columns: [String: String] = [:]
        for row in try connection.rows("SELECT name, upper(type) FROM pragma_table_info(?) WHERE name <> 'id'", [.text(table)]) {
            if case .text(let name) = row[0], case .text(let type) = row[1] { columns[name] = recorded?[name] ?? type }
        }
        return columns
    }

    /// For a read-only store: every table, column and join table `schema`
    /// reads must be there already, since nothing can be added.
    private func checkNeedsNoMigration(_ schema: Schema) throws {
        let hasMetadata = try !connection.rows("SELECT 1 FROM sqlite_master WHERE name = 'folio_metadata'").isEmpty
        guard hasMetadata, let stored = try storedSchema() else {
            throw StoreError.migrationNeeded(path: path, reason: "it has no Folio tables yet")
        }
        if stored.version > schema.version { throw StoreError.newerSchema(stored: stored.version, current: schema.version) }
        let tables = Set(
            try connection.rows("SELECT name FROM sqlite_master WHERE type = 'table'").compactMap { row -> String? in
                if case .text(let name) = row[0] { name } else { nil }
            })
        for entity in schema.entities {
            for (column, type) in Self.columns(of: entity).sorted(by: { $0.key < $1.key }) where stored.tables[entity.name]?[column] != type
            {
                throw StoreError.migrationNeeded(path: path, reason: "\(entity.name).\(column) is not stored yet")
            }
            for p in entity.toManys {
                if case .joinTable(let table, _, _, _) = p.storage, !tables.contains(table) {
                    throw StoreError.migrationNeeded(path: path, reason: "\(entity.name).\(p.name) is not stored yet")
                }
            }
        }
    }

    /// Column name → type for an entity's table (without `id`, with the row version).
    package static func columns(of entity: EntityDescription) -> [String: String] {
        var columns: [String: String] = [RowVersion.column: "INTEGER"]
        for p in entity.attributes { columns[p.name] = p.storeType.rawValue.uppercased() }
        for p in entity.toOnes { columns[p.name] = "INTEGER" }
        // Position columns of ordered to-manys whose inverse is a to-one live on this (the member's) table.
        for p in entity.toOnes where p.inverse.isOrdered {
            if case .inverseColumn(_, let order?) = p.inverse.storage { columns[order] = "INTEGER" }
        }
        return columns
    }

    private func columnDefinition(_ entity: EntityDescription, _ name: String, _ type: String) -> String {
        // Rows stored before versions existed start at the first version.
        if name == RowVersion.column { return "\(RowVersion.column) INTEGER NOT NULL DEFAULT \(RowVersion.first)" }
        var def = "\(quote(name)) \(type)"
        if let p = entity.byName[name] {
            if p.isToOne {
                def += " REFERENCES \(quote(p.target.name))(id) DEFERRABLE INITIALLY DEFERRED"
            } else if let d = p.defaultValue, !d.isNull {
                def += " DEFAULT \(sqlLiteral(d))"
            }
        }
        return def
    }

    private func addMissingColumns(_ entity: EntityDescription, _ columns: [String: String], _ existing: [String: String]) throws {
        for name in try entity.columnsToAdd(columns, existing: existing) {
            // SQLite cannot add a REFERENCES column with a non-null default; ours have none.
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
                  a INTEGER NOT NULL REFERENCES \(quote(entity.name))(id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED,
                  b INTEGER NOT NULL REFERENCES \(quote(p.target.name))(id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED,
                  a_order INTEGER, b_order INTEGER, PRIMARY KEY (a, b)) WITHOUT ROWID;
                CREATE INDEX IF NOT EXISTS \(quote(table + "_b")) ON \(quote(table))(b);
                """)
        }
    }

    /// A literal for a column DEFAULT clause (schema values, not user input).
    private func sqlLiteral(_ v: StoreValue) -> String {
        switch v {
        case .null: "NULL"
        case .integer(let i): String(i)
        case .real(let d): String(d)
        case .text(let s): "'" + s.replacingOccurrences(of: "'", with: "''") + "'"
        case .blob(let d): "X'" + d.map { String(format: "%02X", $0) }.joined() + "'"
        }
    }
}

extension EntityDescription {
    /// Column name → recorded type (`INTEGER`, `REAL`, `TEXT`, `BLOB`) of the
    /// entity's table, without `id`, with ``RowVersion/column``: what every
    /// backend records and migrates by.
    package var storedColumns: [String: String] { SQLiteBackend.columns(of: self) }
}
