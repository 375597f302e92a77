/// The batch requests' SQL, written once for every backend: run inside the
/// backend's write transaction (which writes the history row and commits),
/// it reads what it must check, throws before its first write when a rule
/// would break, and then writes with a few set-wise statements.
package struct BatchRunner {
    let sql: BatchSQL
    var dialect: SQLDialect { sql.dialect }

    package init(_ sql: BatchSQL) { self.sql = sql }

    package func run(_ write: BatchWrite) throws -> BatchOutcome {
        switch write {
        case .insert(let rows): try insert(rows)
        case .update(let plan, let sets): try update(plan, sets)
        case .delete(let plan, let ids): try delete(plan, ids)
        }
    }

    private func insert(_ rows: BatchRows) throws -> BatchOutcome {
        var outcome = BatchOutcome()
        guard rows.count > 0 else { return outcome }
        let name = rows.entity.name
        let related = try relatedRows(rows)
        let first = try sql.batchReserveIDs(name, count: rows.count)
        try sql.batchInsert(rows, firstID: first)
        let last = first + Int64(rows.count) - 1
        // A million new IDs are made only for whoever hears them (see ObjectContext's `run`).
        outcome.inserted = BatchInsertedRows(entity: name, rows: first...last)
        // One range: the history row stays one short line however many rows.
        outcome.history = "+\(name) \(first == last ? "\(first)" : "\(first)-\(last)")"
        // The related objects gained members: their to-manys changed.
        var gained = ChangeSet(origin: .otherContext)
        for (p, ids) in related {
            for id in ids { gained.updated[ObjectID(entityName: p.target.name, rowID: id), default: []].insert(p.inverse.name) }
        }
        if !gained.updated.isEmpty {
            outcome.changes.updated = gained.updated
            outcome.history += "\n" + gained.historyText()
        }
        return outcome
    }

    /// The related rows each to-one of the new rows names, checked to exist
    /// before anything is written (a missing one is an error naming it).
    private func relatedRows(_ rows: BatchRows) throws -> [(PropertyDescription, [Int64])] {
        let e = rows.entity
        var result: [(PropertyDescription, [Int64])] = []
        for p in e.toOnes {
            let offset = BatchRows.offset(of: p, in: e)
            var ids = Set<Int64>()
            for row in 0..<rows.count { if case .integer(let id) = rows.values[row * rows.width + offset] { ids.insert(id) } }
            guard !ids.isEmpty else { continue }
            let wanted = ids.sorted()
            let found = Set(try self.rows("id", from: p.target.name, where: "id", in: wanted))
            if let missing = wanted.first(where: { !found.contains($0) }) {
                throw StoreError.relatedObjectDeleted(entity: e.name, key: p.name, target: p.target.name, targetID: missing)
            }
            result.append((p, wanted))
        }
        return result
    }

    private func update(_ plan: FetchPlan, _ sets: [(PropertyDescription, StoreValue)]) throws -> BatchOutcome {
        var outcome = BatchOutcome()
        let e = plan.entity
        let ids = try matching(plan)
        guard !ids.isEmpty else { return outcome }
        try checkUnique(e, sets, rows: ids)
        var values = sets.map(\.1)
        // Each row changed is a version on, so a context's save of it meets the change (never overwrites it unseen).
        let assignments =
            sets.enumerated().map { "\(quote($0.element.0.name)) = \(dialect.placeholder($0.offset + 1))" }
            + [Self.bump]
        values.append(dialect.idList(ids))
        try sql.batchRun(
            "UPDATE \(quote(e.name)) SET \(assignments.joined(separator: ", ")) WHERE "
                + dialect.isOneOf("id", ids: dialect.placeholder(values.count)), values)
        let keys = Set(sets.map(\.0.name))
        outcome.ids = ids.map { ObjectID(entityName: e.name, rowID: $0) }
        outcome.changes.updated.reserveCapacity(ids.count)
        for id in outcome.ids { outcome.changes.updated[id] = keys }
        outcome.history = outcome.changes.historyText()
        return outcome
    }

    /// The IDs of the rows a plan's condition matches, in row order.
    func matching(_ plan: FetchPlan) throws -> [Int64] {
        var query = "SELECT t0.id FROM \(quote(plan.entity.name)) t0"
        for j in plan.joins { query += " " + j }
        if let w = plan.whereSQL { query += " WHERE " + w }
        return try sql.batchIDs(query + " ORDER BY t0.id", plan.bindings)
    }

    /// A unique attribute set to one value in several rows, or to a value
    /// another row holds, breaks its constraint: refused before any write.
    private func checkUnique(_ e: EntityDescription, _ sets: [(PropertyDescription, StoreValue)], rows: [Int64]) throws {
        for (p, v) in sets where p.isUnique && !v.isNull {
            let taken =
                rows.count > 1
                ? true
                : !(try sql.batchIDs(
                    "SELECT id FROM \(quote(e.name)) WHERE \(quote(p.name)) = \(dialect.placeholder(1)) AND id <> \(dialect.placeholder(2))",
                    [v, .integer(rows[0])])).isEmpty
            if taken { throw StoreError.constraintViolation(entity: e.name, key: p.name, value: v.description) }
        }
    }

    /// Rows of `table` whose `column` is one of `ids` (the first column of `select`).
    func rows(_ select: String, from table: String, where column: String, in ids: [Int64]) throws -> [Int64] {
        guard !ids.isEmpty else { return [] }
        return try sql.batchIDs(
            "SELECT \(select) FROM \(quote(table)) WHERE \(dialect.isOneOf(column, ids: dialect.placeholder(1)))",
            [dialect.idList(ids)])
    }
}
