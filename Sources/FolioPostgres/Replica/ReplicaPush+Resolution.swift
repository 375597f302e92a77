import FolioStore

// A pushed row that is not at the server version its local save was made
// on: resolved by the merge policy as a save between two processes is.
// For each key the local save changed: its value here (`mine`), before the
// save (`was`) and on the server now (`theirs`); keys it did not change
// keep the server's values.
extension ReplicaPush {
    /// The value `policy` gives a key (see ``MergePolicy``).
    static func pick(_ policy: MergePolicy, mine: StoreValue, was: StoreValue, theirs: StoreValue) -> StoreValue {
        switch policy {
        case .mergeByPropertyObjectTrump: mine != was ? mine : theirs
        case .mergeByPropertyStoreTrump: theirs != was ? theirs : mine
        case .overwrite, .error: mine
        case .rollback: theirs
        }
    }

    /// An update whose row changed or went on the server.
    func resolveUpdate(_ entity: EntityDescription, _ u: OutboxEntry.Update, _ written: inout Written) throws {
        let row = RowKey(u.entity, u.id)
        guard let stored = try ReplicaRows.read(c, entity, ids: [u.id]).first else {
            // Deleted there: the change is dropped (the pull removes the row here), unless the app settles it.
            if policy == .error {
                written.conflicts.append(
                    SaveConflict(
                        entity: u.entity, id: u.id, kind: .deletedElsewhere,
                        keys: zip(u.keys, u.new).map { .init(key: $0, stored: .null, context: $1.value) }))
            }
            written.versions[row] = .some(nil)
            return
        }
        let columns = ReplicaRows.columns(of: entity)
        func theirs(_ key: String) -> StoreValue { columns.firstIndex(of: key).map { stored.values[$0] } ?? .null }
        if policy == .error {
            let keys = zip(u.keys, u.new).filter { theirs($0.0) != $0.1.value }.map {
                SaveConflict.Key(key: $0.0, stored: theirs($0.0), context: $0.1.value)
            }
            written.conflicts.append(SaveConflict(entity: u.entity, id: u.id, kind: .changed, keys: keys))
            return
        }
        var keys: [String] = [], values: [StoreValue] = []
        for (index, key) in u.keys.enumerated() {
            let value = Self.pick(policy, mine: u.new[index].value, was: u.old[index].value, theirs: theirs(key))
            if value != theirs(key) {
                keys.append(key)
                values.append(value)
            }
        }
        // Written at the version just read: the write lock keeps anyone else from changing it meanwhile.
        let version = keys.isEmpty ? stored.version : try update(entity, u.id, keys: keys, values: values, at: stored.version)
        written.versions[row] = version ?? stored.version
        written.refresh.insert(row)
    }

    /// A deletion whose row another save changed: the object-trumping
    /// policies delete it anyway; the store-trumping ones keep it, and the
    /// row comes back here with the server's values.
    func resolveDeletion(_ entity: EntityDescription, _ stored: ServerRow, _ written: inout Written) throws {
        let row = RowKey(entity.name, stored.id)
        switch policy {
        case .error:
            written.conflicts.append(SaveConflict(entity: entity.name, id: stored.id, kind: .changedBeforeDelete, keys: []))
        case .mergeByPropertyObjectTrump, .overwrite:
            try c.query("DELETE FROM \(quote(entity.name)) WHERE id = $1", [.integer(stored.id)])
        case .mergeByPropertyStoreTrump, .rollback:
            written.versions[row] = stored.version
            written.refresh.insert(row)
            try refreshReferrers(of: row, &written)
        }
    }
}
