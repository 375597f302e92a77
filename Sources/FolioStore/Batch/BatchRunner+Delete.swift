// A batch delete with the delete rules, in SQL: the cascade's closure is
// read first, then deny and the survivors' required relationships are
// checked, and only then does anything change: foreign keys of surviving
// rows cleared, join-table rows removed, the rows deleted, one statement
// per entity and relationship.
extension BatchRunner {
    func delete(_ plan: FetchPlan, _ given: [Int64]?) throws -> BatchOutcome {
        var outcome = BatchOutcome()
        let root = plan.entity
        let ids = try given.map { try rows("id", from: root.name, where: "id", in: Array(Set($0))).sorted() } ?? matching(plan)
        guard !ids.isEmpty else { return outcome }

        // Everything the request deletes: its rows and, through cascades, theirs.
        var doomed: [String: Set<Int64>] = [root.name: Set(ids)]
        var entities: [String: EntityDescription] = [root.name: root]
        var queue: [(EntityDescription, [Int64])] = [(root, ids)]
        while let (e, batch) = queue.popLast() {
            for p in e.properties where !p.isAttribute && p.deleteRule == .cascade {
                let fresh = try targets(p, of: batch).filter { doomed[p.target.name, default: []].insert($0).inserted }
                if !fresh.isEmpty {
                    entities[p.target.name] = p.target
                    queue.append((p.target, fresh))
                }
            }
        }

        // Checks, before any write: objects that stay and still point at a deleted one.
        var clears: [(PropertyDescription, [Int64])] = []
        let order = doomed.keys.sorted()
        for name in order {
            let e = entities[name]!
            let gone = doomed[name]!.sorted()
            for p in e.properties where !p.isAttribute {
                clears.append((p, gone))
                let survivors = try targets(p, of: gone).filter { doomed[p.target.name]?.contains($0) != true }
                guard let first = survivors.min() else { continue }
                if p.deleteRule == .deny { throw StoreError.deleteDenied(entity: e.name, key: p.name) }
                if p.inverse.isToOne && !p.inverse.isOptional {
                    throw StoreError.validation(
                        entity: p.target.name, key: p.inverse.name,
                        reason: "a related object is required (\(p.target.name) \(first) would lose its \(e.name))")
                }
                for s in survivors {
                    outcome.changes.updated[ObjectID(entityName: p.target.name, rowID: s), default: []].insert(p.inverse.name)
                }
            }
        }

        for (p, gone) in clears { try clear(p, of: gone) }
        for name in order {
            let gone = doomed[name]!.sorted()
            try sql.batchRun(
                "DELETE FROM \(quote(name)) WHERE \(dialect.isOneOf("id", ids: dialect.placeholder(1)))", [dialect.idList(gone)])
            for id in gone { outcome.changes.deleted.insert(ObjectID(entityName: name, rowID: id)) }
        }
        outcome.ids = ids.map { ObjectID(entityName: root.name, rowID: $0) }
        outcome.history = outcome.changes.historyText()
        return outcome
    }

    /// The row IDs `p` of the rows `ids` points at.
    private func targets(_ p: PropertyDescription, of ids: [Int64]) throws -> [Int64] {
        switch p.storage {
        case .column(let column):
            return Array(Set(try rows(quote(column), from: p.entity.name, where: "id", in: ids)))
        case .inverseColumn(let column, _):
            return try rows("id", from: p.target.name, where: quote(column), in: ids)
        case .joinTable(let table, let mine, let other, _):
            return Array(Set(try rows(other, from: table, where: mine, in: ids)))
        case .none:
            return []
        }
    }

    /// The rows a deletion nullifies are changed: one version on, as a save's update.
    static var bump: String { "\(RowVersion.column) = \(RowVersion.column) + 1" }

    /// Takes the deleted rows `gone` out of `p`'s other side: the inverse
    /// foreign key of surviving rows, or the join table's rows.
    private func clear(_ p: PropertyDescription, of gone: [Int64]) throws {
        let marker = dialect.placeholder(1)
        switch p.storage {
        case .column:
            // One-to-one: the other side holds a column too; to-many inverses live in the deleted rows.
            guard p.inverse.isToOne, case .column(let column) = p.inverse.storage else { return }
            try sql.batchRun(
                "UPDATE \(quote(p.target.name)) SET \(quote(column)) = NULL, \(Self.bump) WHERE \(dialect.isOneOf(quote(column), ids: marker))",
                [dialect.idList(gone)])
        case .inverseColumn(let column, let order):
            let sets = [column] + (order.map { [$0] } ?? [])
            try sql.batchRun(
                "UPDATE \(quote(p.target.name)) SET \((sets.map { "\(quote($0)) = NULL" } + [Self.bump]).joined(separator: ", ")) "
                    + "WHERE \(dialect.isOneOf(quote(column), ids: marker))", [dialect.idList(gone)])
        case .joinTable(let table, let mine, _, _):
            try sql.batchRun("DELETE FROM \(quote(table)) WHERE \(dialect.isOneOf(mine, ids: marker))", [dialect.idList(gone)])
        case .none:
            return
        }
    }
}
