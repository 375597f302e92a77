import FolioStore

extension ReplicaFile {
    /// After rows left the replica (`deleted`): rows here that still refer
    /// to them (a waiting local save's, which the server never saw) follow
    /// the delete rule they would have met, as ``ReplicaPush`` applies it
    /// on the server: `.cascade` removes them too (and so on down), the
    /// other rules clear the reference. Returns what it changed, for the
    /// history row of the same transaction.
    func settleDangling(_ schema: Schema, deleted: Set<ObjectID>) throws -> ChangeSet {
        var changes = ChangeSet(origin: .otherProcess)
        var queue = Array(deleted)
        while let gone = queue.popLast() {
            for entity in schema.entities {
                for p in entity.toOnes where p.target.name == gone.entityName {
                    let ids = try connection.rows("SELECT id FROM \(quote(entity.name)) WHERE \(quote(p.name)) = ?", [.integer(gone.rowID)])
                        .compactMap { row -> Int64? in if case .integer(let id) = row[0] { id } else { nil } }
                    guard !ids.isEmpty else { continue }
                    if p.inverse.deleteRule == .cascade {
                        try delete(entity, ids: ids)
                        for id in ids {
                            let object = ObjectID(entityName: entity.name, rowID: id)
                            changes.updated[object] = nil
                            changes.deleted.insert(object)
                            queue.append(object)
                        }
                    } else {
                        for id in ids {
                            try connection.run(
                                """
                                UPDATE \(quote(entity.name)) SET \(quote(p.name)) = NULL, \(RowVersion.column) = \(RowVersion.column) + 1 WHERE id = ?
                                """, [.integer(id)])
                            changes.updated[ObjectID(entityName: entity.name, rowID: id), default: []].insert(p.name)
                        }
                    }
                }
            }
        }
        if !changes.isEmpty { ReplicaTrace.note("settled here \(changes)") }
        return changes
    }
}
