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

extension ObjectContext {
    /// How many times a save resolves conflicts and writes again before it
    /// gives up with the conflicts (each round needs another save to land in between).
    static var conflictRounds: Int { 8 }

    /// Commits `pending` with `commit`; when rows changed elsewhere, resolves
    /// them by ``mergePolicy`` and commits what the context then holds.
    /// Nil when the resolution left nothing to write.
    func commitResolvingConflicts(_ pending: PendingSave,
                                  _ commit: (SaveBatch) throws -> [ObjectID]) throws -> (PendingSave, [ObjectID])? {
        var pending = pending
        for round in 1... {
            do { return (pending, try commit(pending.batch)) } catch let stale as StaleWrite {
                let found = conflicts(stale)
                let deletions = found.filter { $0.kind != .changed }
                if mergePolicy == .error || round == Self.conflictRounds { throw StoreError.conflict(found) }
                // No per-property rule decides between a deletion and a change: both sides hear of it.
                if !deletions.isEmpty { throw StoreError.conflict(deletions) }
                for row in stale.rows { if let o = registry[row.id], let stored = row.stored { resolve(o, stored) } }
                guard let next = try prepareSave(tellingObservers: false) else { return nil }
                pending = next
            }
        }
        preconditionFailure("unreachable")
    }

    /// Gives each key of `o` the value ``mergePolicy`` picks between this
    /// context's, the stored one and the one both started from; the object
    /// is then at the stored row's version.
    private func resolve(_ o: ManagedObject, _ stored: StoredRow) {
        let base = o.committed ?? CommittedValues(attrs: o.attrs, ones: o.ones)
        let policy = mergePolicy
        func pick<V: Equatable>(_ mine: V, _ was: V, _ theirs: V) -> V {
            switch policy {
            case .mergeByPropertyObjectTrump: mine != was ? mine : theirs
            case .mergeByPropertyStoreTrump: theirs != was ? theirs : mine
            case .overwrite, .error: mine
            case .rollback: theirs
            }
        }
        for p in o.meta.attributes {
            let value = pick(o.attrs[p.slot], base.attrs[p.slot], stored.attributes[p.slot])
            guard value != o.attrs[p.slot] else { continue }
            o.attrs[p.slot] = value
            noteChange(o, p.name)
        }
        for p in o.meta.toOnes {
            let mine = o.ones[p.slot]
            let value = pick(mine, base.ones[p.slot], stored.toOnes[p.slot])
            guard value != mine else { continue }
            o.ones[p.slot] = value
            // The other sides follow, as they do when the relationship is set.
            if let mine { detachInverse(of: o, p, from: mine) }
            if let value { attachInverse(of: o, p, to: value) }
            noteChange(o, p.name)
        }
        o.committed = CommittedValues(attrs: stored.attributes, ones: stored.toOnes)
        o.version = stored.version
    }
}
