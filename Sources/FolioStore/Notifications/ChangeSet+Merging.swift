extension ChangeSet {
    /// This change set followed by `later`, as one: what an observer needs
    /// to go from the state before both to the state after both.
    ///
    /// A deletion wins over an earlier insert or update (reporting the
    /// delete of an object an observer never saw is harmless; leaving out
    /// one it fetched in between would leave it stale). An object inserted
    /// and then updated is reported as inserted; keys of two updates are
    /// joined. A reload absorbs everything.
    ///
    ///     let both = first.merged(with: second)
    ///
    /// - Complexity: O(n + k): this one's n IDs are copied, then `later`'s k merged.
    package func merged(with later: ChangeSet) -> ChangeSet {
        var result = self
        result.merge(later)
        return result
    }

    /// Makes this change set ``merged(with:)`` `later`, in place: a run of
    /// change sets folded one by one costs the IDs of each, where folding
    /// with ``merged(with:)`` copies the whole set so far at every step.
    ///
    ///     var all = ChangeSet(origin: .otherProcess)
    ///     for row in rows { all.merge(row.changes) }
    ///
    /// - Complexity: O(k) in the IDs of `later`.
    package mutating func merge(_ later: ChangeSet) {
        if isReload || later.isReload {
            self = .reload(origin: later.origin)
            return
        }
        origin = later.origin
        for id in later.deleted {
            inserted.remove(id)
            updated[id] = nil
            deleted.insert(id)
        }
        for id in later.inserted where !deleted.contains(id) { inserted.insert(id) }
        for (id, keys) in later.updated where !inserted.contains(id) && !deleted.contains(id) {
            updated[id, default: []].formUnion(keys)
        }
    }
}
