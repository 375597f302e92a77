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
    /// - Complexity: O(k) in the IDs of `later`.
    package func merged(with later: ChangeSet) -> ChangeSet {
        if isReload || later.isReload { return .reload(origin: later.origin) }
        var result = self
        result.origin = later.origin
        for id in later.deleted {
            result.inserted.remove(id)
            result.updated[id] = nil
            result.deleted.insert(id)
        }
        for id in later.inserted where !result.deleted.contains(id) { result.inserted.insert(id) }
        for (id, keys) in later.updated where !result.inserted.contains(id) && !result.deleted.contains(id) {
            result.updated[id, default: []].formUnion(keys)
        }
        return result
    }
}
