// Another process's save reaches every container of this process with the
// stored rows its change feed read once for all of them (``HeardRows``).
// While a context merges such a change set, a read of only those rows is
// answered from them: a results controller placing the changed objects and
// a loaded object taking its new values read nothing more from the store.

extension ObjectContext {
    /// Merges `changes` as ``merge(_:)`` does, with `heard`, the stored rows
    /// of its objects, used by the merge and by the reads observers make meanwhile.
    func merge(_ changes: ChangeSet, heard: HeardRows?) {
        guard let heard, !heard.isEmpty, !changes.isReload else { return merge(changes) }
        heardRows = heard
        defer {
            heardRows = nil
            heardObjects = []
        }
        merge(changes)
    }

    /// The rows heard with the change set being merged, unless this context
    /// used the store after their read began: a store read at another
    /// batch's turn (a merge late on the main thread) may have seen a newer
    /// state, even the row gone, and a controller must not go back from it.
    var currentHeardRows: HeardRows? {
        guard let heard = heardRows, heard.readStart >= lastStoreUse else { return nil }
        return heard
    }

    /// Whether the heard row of `id` is at least as new as this context's
    /// last read of that row by ID (see ``withStore(readingRows:_:)``).
    func isCurrent(_ id: ObjectID, in heard: HeardRows) -> Bool {
        rowsReadAt[id].map { $0 <= heard.readStart } ?? true
    }

    /// The row heard for `object` while a merge runs, if it was read, is there and fits its entity.
    func heardRow(_ object: ManagedObject) -> StoredRow? {
        guard let heard = currentHeardRows, case .some(.some(let row)) = heard.row(object.objectID), heard.fits(object.meta),
            isCurrent(object.objectID, in: heard)
        else {
            return nil
        }
        return row
    }

    /// What ``fetchKeys(_:restrictedToRows:)`` reads from the store for
    /// `rows` (stored objects without unsaved changes here): each matching
    /// object's ID with its sort keys' and key paths' values, answered from
    /// the rows heard with the change set being merged; nil when one of them
    /// was not heard (the store is read then). The objects are loaded from
    /// their rows and matched as unsaved ones are, and kept until the merge
    /// ends, so an observer that asks for them finds them loaded.
    func heardKeys<T: ManagedObject>(_ prepared: PreparedKeyFetch<T>, rows: [Int64]) -> [(ObjectID, [StoreValue])]? {
        let e = prepared.entity, request = prepared.request
        guard let heard = currentHeardRows, !rows.isEmpty, heard.fits(e) else { return nil }
        var found: [(Int64, StoredRow)] = []
        found.reserveCapacity(rows.count)
        for rowID in rows {
            let id = ObjectID(entityName: e.name, rowID: rowID)
            guard let row = heard.row(id), isCurrent(id, in: heard) else { return nil }
            // An object this context had from a newer row than the one heard: the store says which is current.
            if let o = registry.object(e, rowID), o.version > (row?.version ?? .max) { return nil }
            if let row { found.append((rowID, row)) }
        }
        var result: [(ObjectID, [StoreValue])] = []
        result.reserveCapacity(found.count)
        for (rowID, row) in found {
            // Loaded here from an older row (fetched before the change was heard): it takes the newer one.
            if let o = registry.object(e, rowID), !o.isFault, o.version < row.version { fill(o, row) }
            let o = materialise(e, rowID, row)
            heardObjects.append(o)
            do {
                if let p = request.predicate, !(try p.evaluate(o as! T)) { continue }
            } catch {
                return nil
            }
            if !request.stringFilters.allSatisfy({ matches($0, o) }) { continue }
            result.append((o.objectID, prepared.chains.map { value(of: o, through: $0) }))
        }
        return result
    }
}
