import FolioStore

// A batch whose keys the store cannot read (a server away, a file another
// connection holds locked) is not dropped: the results would then differ
// from the store and the context for good — a failed delete rolled back
// would leave its row gone. What the context holds in memory is placed at
// once, and every object of the batch is read again from the store with the
// next batch, or on a retry every quarter second, until the store answers.

extension FetchedResultsController {
    /// The part of a batch that can be placed without the store: deletions,
    /// and objects the context holds with their keys loaded (none for a
    /// windowed request, whose membership depends on rank). Everything not
    /// deleted is kept for a read once the store answers.
    /// A retry with nothing new (`placed`) places nothing again.
    /// - Returns: the candidates to report now and the key rows of those present.
    func placeUnread(_ plan: KeyPlan<Entity>, _ candidates: [Candidate], deleted: [Int64], placed: Bool)
        -> (candidates: [Candidate], keyed: [(Int64, [StoreValue])])
    {
        func isDeleted(_ id: Int64) -> Bool { Self.position(of: id, in: deleted) { $0 } != nil }
        guard !plan.isWindowed, !placed else {
            holdUnread(candidates)
            return ([], [])
        }
        let live = candidates.filter { !isDeleted($0.id) }
        holdUnread(live)
        let known = managedObjectContext.fetchKeysInMemory(
            fetchRequestForAll(), keyPaths: plan.keyPaths,
            restrictedTo: live.map { objectID($0.id) })
        var keyed: [(Int64, [StoreValue])] = []
        for (id, values) in known { if let values { keyed.append((engineID(id), values)) } }
        let placed = candidates.filter { isDeleted($0.id) || known[objectID($0.id)] != nil }
        return (placed, keyed)
    }

    /// Keeps objects to read with the next batch, and makes sure one comes.
    func holdUnread(_ candidates: [Candidate]) {
        guard unread.hold(candidates) else { return }
        Task { @MainActor [weak self] in
            try? await Task.sleep(for: .milliseconds(250))
            guard let self, unread.retryCame() else { return }
            process(ChangeSet(origin: .otherProcess))
        }
    }
}
