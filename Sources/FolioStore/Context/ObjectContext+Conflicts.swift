extension ObjectContext {
    /// The conflicts of a save whose rows changed elsewhere, object by object:
    /// every key whose stored value differs from this context's.
    func conflicts(_ stale: StaleWrite) -> [SaveConflict] {
        stale.rows.compactMap { row in
            guard let o = registry[row.id] else { return nil }
            let kind: SaveConflict.Kind = row.stored == nil ? .deletedElsewhere : row.deleting ? .changedBeforeDelete : .changed
            var keys: [SaveConflict.Key] = []
            let base = o.committed ?? CommittedValues(attrs: o.attrs, ones: o.ones)
            for p in o.meta.attributes {
                let here = o.isDeletedFlag ? base.attrs[p.slot] : o.attrs[p.slot]
                let there = row.stored?.attributes[p.slot]
                // A row gone elsewhere: only the keys changed here are news.
                if let there, there != here { keys.append(.init(key: p.name, stored: there, context: here)) }
                if there == nil && here != base.attrs[p.slot] { keys.append(.init(key: p.name, stored: .null, context: here)) }
            }
            for p in o.meta.toOnes {
                let here = o.isDeletedFlag ? base.ones[p.slot] : o.ones[p.slot]
                let value: (ObjectID?) -> StoreValue = { $0.map { .integer($0.rowID) } ?? .null }
                if let stored = row.stored, stored.toOnes[p.slot] != here {
                    keys.append(.init(key: p.name, stored: value(stored.toOnes[p.slot]), context: value(here)))
                }
                if row.stored == nil && here != base.ones[p.slot] { keys.append(.init(key: p.name, stored: .null, context: value(here))) }
            }
            return SaveConflict(entity: row.entity.name, id: row.id.rowID, kind: kind, keys: keys)
        }
    }
}
