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
    func commitResolvingConflicts(
        _ pending: PendingSave,
        _ commit: (SaveBatch) throws -> [ObjectID]
    ) throws -> (PendingSave, [ObjectID])? {
        defer { noteStoreUse() }
        var pending = pending
        for round in 1... {
            do { return (pending, try commit(pending.batch)) } catch let stale as StaleWrite {
                let found = conflicts(stale)
                if mergePolicy == .error || round == Self.conflictRounds { throw StoreError.conflict(found) }
                for row in stale.rows {
                    guard let o = registry[row.id] else { continue }
                    switch (row.stored, row.deleting) {
                    case (let stored?, false): resolve(o, stored)
                    case (let stored?, true): resolveDeletion(o, stored)
                    case (nil, _): leave(o)
                    }
                }
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
            noteChange(o, p)
        }
        for p in o.meta.toOnes {
            let mine = o.ones[p.slot]
            let value = pick(mine, base.ones[p.slot], stored.toOnes[p.slot])
            guard value != mine else { continue }
            o.ones[p.slot] = value
            // The other sides follow, as they do when the relationship is set.
            if let mine { detachInverse(of: o, p, from: mine) }
            if let value { attachInverse(of: o, p, to: value) }
            noteChange(o, p)
        }
        o.committed = CommittedValues(attrs: stored.attributes, ones: stored.toOnes)
        o.version = stored.version
        o.isBehindStore = false
    }
}

extension ObjectContext {
    /// Deleted here, changed by another save: the object-trumping policies
    /// keep the deletion (written again at the stored version); the
    /// store-trumping ones drop it, and the deletions it cascaded to, and the
    /// object takes the stored values.
    private func resolveDeletion(_ o: ManagedObject, _ stored: StoredRow) {
        switch mergePolicy {
        case .mergeByPropertyObjectTrump, .overwrite, .error: o.version = stored.version
        case .mergeByPropertyStoreTrump, .rollback: undelete(o)
        }
    }

    /// Takes back the deletion of `o` and of what it cascaded to; each turns
    /// into a fault, so it reads the stored row (and its version) again.
    private func undelete(_ o: ManagedObject) {
        guard o.isDeletedFlag, !o.isInsertedFlag else { return }
        var cascaded: [ManagedObject] = []
        for p in o.meta.properties where !p.isAttribute && p.deleteRule == .cascade {
            let ids: [ObjectID] =
                p.isToOne
                ? [o.committed?.ones[p.slot] ?? nil].compactMap { $0 }
                : (o.manys[p.slot]?.removed ?? []).map { ObjectID(entityName: p.target.name, rowID: $0) }
            cascaded += ids.compactMap { registry[$0] }.filter(\.isDeletedFlag)
        }
        refresh(o, mergeChanges: false)
        for c in cascaded { undelete(c) }
    }

    /// Changed here, deleted by another save: the change is dropped and the
    /// object leaves the context, as when that deletion is merged (observers
    /// hear it deleted in the next batch). It never comes back: that would
    /// bypass the other side's delete rules.
    private func leave(_ o: ManagedObject) {
        noteChange(o)
        unregister(o.objectID)
        untouch(o)
        o.committed = nil
        deletedElsewhere.keep(o)
        forgetStoredMembership(after: ChangeSet(deleted: [o.objectID]))
    }
}
