// A context hears other connections' commits a moment after they land:
// the follower reads the history, then the context merges on its own turn.
// Meanwhile a fetch already sees them, so a fetch and what the context (and
// its controllers) show can differ without anything being wrong. A check
// that compares the two must know whether a fetch saw only merged commits.

extension ObjectContext {
    /// Runs `body` (reads of the store) and says whether every commit those
    /// reads could see had been merged into this view context: no commit
    /// landed during `body`, the follower had read through the newest one,
    /// and nothing it handed on waits to be merged. False when unknown (a
    /// store without a follower, or not the view context).
    ///
    ///     let (rows, merged) = try context.readingMergedState { try context.fetchKeys(request, keyPaths: []) }
    package func readingMergedState<T>(_ body: () throws -> T) throws -> (T, merged: Bool) {
        requireConfinement()
        guard mainBox != nil, let follower = coordinator.shared.follower else { return (try body(), false) }
        // In this order: what the follower read was handed on (counted in flight) before it said so.
        let read = follower.readThrough.load(ordering: .acquiring)
        let waiting = waitingMerges.count
        let before = try withStore { try $0.latestHistoryPosition() }
        let result = try body()
        let after = try withStore { try $0.latestHistoryPosition() }
        return (result, before == after && read >= before && waiting == 0)
    }
}
