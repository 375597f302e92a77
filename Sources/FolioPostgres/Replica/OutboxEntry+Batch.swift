import FolioStore

extension OutboxEntry {
    /// The entry of a batch request that ran on the replica: the rows it
    /// inserted (read back whole by `row`), each row it updated with the
    /// values it wrote and those before (`before`), and every row it deleted,
    /// those its cascades took included. Rows its delete rules cleared are
    /// not updates here: the pushed deletion runs the rules on the server's
    /// rows as they are then, as a save's does.
    init(
        _ write: BatchWrite, _ outcome: BatchOutcome, before: [Int64: [StoreValue]],
        row: (EntityDescription, Int64, [String]) throws -> [StoreValue]?
    ) throws {
        history = outcome.history
        switch write {
        case .insert(let rows):
            let entity = rows.entity
            let names = (entity.attributes + entity.toOnes).map(\.name)
            for id in outcome.inserted.map({ Range($0.rows) }) ?? 0..<0 {
                guard let values = try row(entity, id, names) else { continue }
                inserts.append(
                    Insert(
                        entity: entity.name, id: id,
                        values: Dictionary(uniqueKeysWithValues: zip(names, values.map(ReplicaValue.init)))))
            }
        case .update(let plan, let sets):
            let keys = sets.map(\.0.name)
            let new = sets.map { ReplicaValue($0.1) }
            for id in outcome.ids {
                let old = before[id.rowID] ?? Array(repeating: .null, count: keys.count)
                updates.append(Update(entity: plan.entity.name, id: id.rowID, keys: keys, new: new, old: old.map(ReplicaValue.init)))
            }
        case .delete:
            deletes = outcome.changes.deleted.sorted().map { Delete(entity: $0.entityName, id: $0.rowID) }
        }
    }
}
