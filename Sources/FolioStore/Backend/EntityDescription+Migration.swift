extension EntityDescription {
    /// The columns a lightweight migration adds to the entity's table, in
    /// name order: the wanted ones (name → recorded type) not there yet.
    /// Every backend migrates by these rules: a changed type, a new required
    /// attribute without a default, or a new required to-one cannot be
    /// filled in for existing rows, and is an error naming the key.
    ///
    ///     for name in try entity.columnsToAdd(entity.storedColumns, existing: stored) { … ADD COLUMN … }
    package func columnsToAdd(_ wanted: [String: String], existing: [String: String]) throws -> [String] {
        var added: [String] = []
        for name in wanted.keys.sorted() {
            let type = wanted[name]!
            if let old = existing[name] {
                if old != type {
                    throw StoreError.migrationImpossible(entity: self.name, key: name, reason: "its type changed from \(old) to \(type)")
                }
                continue
            }
            if let p = byName[name], p.isAttribute, !p.isOptional, p.defaultValue == nil {
                throw StoreError.migrationImpossible(
                    entity: self.name, key: name,
                    reason: "a new required attribute needs a default value for existing rows")
            }
            if let p = byName[name], p.isToOne, !p.isOptional {
                throw StoreError.migrationImpossible(
                    entity: self.name, key: name,
                    reason: "a new required relationship cannot be filled in for existing rows")
            }
            added.append(name)
        }
        return added
    }

    /// The statements making the entity's indexes (indexed and unique
    /// properties, unique-together groups), the same SQL on every backend.
    ///
    ///     for sql in entity.indexStatements { try connection.execute(sql) }
    package var indexStatements: [String] {
        let table = quote(name)
        var statements: [String] = []
        for p in attributes + toOnes where p.isIndexed {
            let unique = p.isUnique ? "UNIQUE " : ""
            statements.append("CREATE \(unique)INDEX IF NOT EXISTS \(quote("\(name)_\(p.name)")) ON \(table)(\(quote(p.name)))")
        }
        for group in uniqueTogether {
            let index = quote("\(name)_" + group.joined(separator: "_"))
            statements.append("CREATE UNIQUE INDEX IF NOT EXISTS \(index) ON \(table)(\(group.map(quote).joined(separator: ", ")))")
        }
        return statements
    }
}
