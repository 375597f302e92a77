/// A save the store's foreign keys refused (rolled back, nothing written)
/// met a row another save deleted or related meanwhile. The store says only
/// "foreign key"; this finds the reason in what the save writes, read again
/// as stored now, so the error names the objects and the relationship.
extension StoreBackend {
    /// The clear error for `batch`, or nil when the store shows no such reason.
    package func danglingReferenceError(_ batch: SaveBatch) throws -> StoreError? {
        // A deleted object that rows still refer to: another save related them to it.
        for d in batch.deletes {
            for p in d.entity.toManys {
                guard case .inverseColumn = p.storage, let member = try members(of: p, owner: d.id.rowID).first else { continue }
                if p.deleteRule == .deny { return .deleteDenied(entity: d.entity.name, key: p.name) }
                return .relatedSinceRead(entity: d.entity.name, id: d.id.rowID, key: p.name, related: p.target.name, relatedID: member)
            }
        }
        // A relationship set to an object that another save deleted (new objects of this save exist).
        var references: [(property: PropertyDescription, target: ObjectID)] = []
        for insert in batch.inserts {
            for (p, id) in zip(insert.entity.toOnes, insert.ones) { if let id, !id.isTemporary { references.append((p, id)) } }
        }
        for update in batch.updates {
            for (p, id) in update.ones { if let id, !id.isTemporary { references.append((p, id)) } }
        }
        for m in batch.joinAdds {
            if !m.member.isTemporary { references.append((m.property, m.member)) }
            if !m.owner.isTemporary, let inverse = m.property.inverse { references.append((inverse, m.owner)) }
        }
        for group in Dictionary(grouping: references, by: \.target.entityName).sorted(by: { $0.key < $1.key }).map(\.value) {
            let target: EntityDescription = group[0].property.target
            let present = try rows(of: target, ids: group.map(\.target.rowID))
            if let missing = group.first(where: { present[$0.target.rowID] == nil }) {
                return .relatedObjectDeleted(
                    entity: missing.property.entity.name, key: missing.property.name,
                    target: target.name, targetID: missing.target.rowID)
            }
        }
        return nil
    }
}
