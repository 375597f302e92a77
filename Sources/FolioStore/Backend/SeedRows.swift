/// The rows a seed saved into a new store, table by table: what a server's
/// store writes in the same transaction that creates its tables, so a new
/// store is never seen (nor left, by a killed first launch) without them —
/// as a new file appears with its seed in one step.
///
///     try backend.prepare(schema, seed: { try SeedRows.made(by: seed, for: schema) })
package struct SeedRows {
    package struct Table {
        package let name: String
        package let columns: [String]
        package var rows: [[StoreValue]]
    }

    package var tables: [Table] = []
}

extension SeedRows {
    /// Runs `seed` on a new in-memory store of `schema`, saves it, and reads back every table it wrote.
    static func made(by seed: (ObjectContext) throws -> Void, for schema: Schema, busyTimeoutMilliseconds: Int32) throws -> SeedRows {
        let builder = try StoreCoordinator(schema: schema, path: nil, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        let context = ObjectContext(coordinator: builder, delivery: .caller)
        try seed(context)
        try context.save()
        return try builder.withBackend { backend in
            guard let sqlite = backend as? SQLiteBackend else { preconditionFailure("seeds are built in SQLite") }
            return try sqlite.seedRows(of: schema)
        }
    }
}

extension SQLiteBackend {
    /// Every row of the schema's tables, its join tables and the ID sequence.
    func seedRows(of schema: Schema) throws -> SeedRows {
        var names = schema.entities.map(\.name)
        for entity in schema.entities {
            for p in entity.toManys { if case .joinTable(let table, "a", _, _) = p.storage { names.append(table) } }
        }
        names.append("folio_sequence")
        var seed = SeedRows()
        for name in names {
            let columns = try connection.rows("SELECT name FROM pragma_table_info(?)", [.text(name)]).compactMap { row -> String? in
                if case .text(let column) = row[0] { column } else { nil }
            }
            let rows = try connection.rows("SELECT \(columns.map(quote).joined(separator: ", ")) FROM \(quote(name))")
            if !rows.isEmpty { seed.tables.append(SeedRows.Table(name: name, columns: columns, rows: rows)) }
        }
        return seed
    }
}
