import FolioStore

/// The statements a push writes for every entry, made once a round per
/// entity (and per set of keys) instead of once a row: a push of 10,000
/// waiting saves spent more of its time spelling SQL than running it.
final class ReplicaPushSQL {
    /// What a push needs of one entity's table.
    struct Entity {
        /// Every stored column but the version, by name (``ReplicaRows/columns(of:)``).
        let columns: [String]
        /// The replica's row of an ID, those columns in that order.
        let selectHere: String
        /// A to-one column's target entity, by column.
        let targets: [String: String]
    }

    private var entities: [String: Entity] = [:]
    private var updates: [UpdateShape: String] = [:]

    private struct UpdateShape: Hashable {
        let entity: String
        let keys: [String]
    }

    func entity(_ entity: EntityDescription) -> Entity {
        if let known = entities[entity.name] { return known }
        let columns = ReplicaRows.columns(of: entity)
        let made = Entity(
            columns: columns,
            selectHere: "SELECT \(columns.map(quote).joined(separator: ", ")) FROM \(quote(entity.name)) WHERE id = ?",
            targets: Dictionary(uniqueKeysWithValues: entity.toOnes.map { ($0.name, $0.target.name) }))
        entities[entity.name] = made
        return made
    }

    /// One UPDATE of `keys` of `count` rows, each at a server version,
    /// returning each row whole, its ID first (`$1…`: per row its ID, its
    /// version, then its values). Each value is cast to its column's type,
    /// as an assignment would: a column of NULLs alone has no type.
    func updateRowsReturning(_ entity: EntityDescription, keys: [String], count: Int) -> String {
        let stored = entity.storedColumns
        let types = ["bigint", "bigint"] + keys.map { Self.cast(stored[$0]) }
        let rows = (0..<count).map { row in
            "(" + types.enumerated().map { "$\(row * types.count + $0.offset + 1)::\($0.element)" }.joined(separator: ", ") + ")"
        }
        let names = ["id", "version"] + keys.indices.map { "c\($0)" }
        let sets =
            keys.enumerated().map { "\(quote($0.element)) = v.c\($0.offset)" } + ["\(RowVersion.column) = t.\(RowVersion.column) + 1"]
        let returned = ["t.id"] + (self.entity(entity).columns.map(quote) + [RowVersion.column]).map { "t." + $0 }
        return """
            UPDATE \(quote(entity.name)) AS t SET \(sets.joined(separator: ", "))
            FROM (VALUES \(rows.joined(separator: ", "))) AS v(\(names.joined(separator: ", ")))
            WHERE t.id = v.id AND t.\(RowVersion.column) = v.version
            RETURNING \(returned.joined(separator: ", "))
            """
    }

    /// The server's type of a stored column type, for a cast.
    private static func cast(_ type: String?) -> String {
        switch type {
        case "INTEGER": "bigint"
        case "REAL": "double precision"
        case "TEXT": "text"
        default: "bytea"
        }
    }

    /// The UPDATE of `keys` of a row at a server version, returning the row whole
    /// (`$1…` the values, then the ID and the version).
    func updateReturningRow(_ entity: EntityDescription, keys: [String]) -> String {
        let shape = UpdateShape(entity: entity.name, keys: keys)
        if let known = updates[shape] { return known }
        let columns = self.entity(entity).columns
        let sets =
            keys.enumerated().map { "\(quote($0.element)) = $\($0.offset + 1)" } + ["\(RowVersion.column) = \(RowVersion.column) + 1"]
        let sql = """
            UPDATE \(quote(entity.name)) SET \(sets.joined(separator: ", "))
            WHERE id = $\(keys.count + 1) AND \(RowVersion.column) = $\(keys.count + 2)
            RETURNING \((columns.map(quote) + [RowVersion.column]).joined(separator: ", "))
            """
        updates[shape] = sql
        return sql
    }
}
