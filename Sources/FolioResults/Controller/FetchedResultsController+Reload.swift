import FolioStore

// History the context had not heard was trimmed (its reader was stopped past
// the silence limit): no change set can say what changed, so the controller
// fetches afresh and reports one reload, every old section deleted and every
// new one inserted, as a change of sort order is reported. Ignored, the
// results would stay as they were before the gap for good.

extension FetchedResultsController {
    /// Fetches afresh after missed history and reports it as one reload; a
    /// store that cannot be read now is tried again every quarter second.
    /// - Complexity: O(n log n), as `performFetch()`.
    func reloadAfterMissedHistory() {
        guard let plan else { return }  // nothing fetched, nothing shown
        // The cache describes the results before the gap.
        if let cacheName { ResultsCache.delete(name: cacheName) }
        do {
            try refetchAll(plan)
        } catch {
            Task { @MainActor [weak self] in
                try? await Task.sleep(for: .milliseconds(250))
                self?.reloadAfterMissedHistory()
            }
        }
    }
}
