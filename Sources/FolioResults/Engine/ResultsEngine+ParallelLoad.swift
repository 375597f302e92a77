extension ResultsEngine {
    /// Installs many rows in order: each section's tree is built as one
    /// task on several threads, then every row is placed in the location
    /// map on this one. Every ID must be an integer the map's array covers,
    /// so nothing grows.
    /// - Complexity: O(n), the trees shared among the threads.
    func installInParallel(_ installs: [Install], rows: Int) {
        let sources = installs.map { ($0.entries, $0.leads) }
        let trees = Lanes.collect(sources.count) { k in OrderStatisticTree(sorted: sources[k].0, leads: sources[k].1) }
        for (install, tree) in zip(installs, trees) {
            install.store.rows = tree
            let fresh = install.entries.withUnsafeBufferPointer { entries in
                locations.placeNew(slot: install.store.slot, count: entries.count, growing: false) { entries[$0].id }
            }
            precondition(fresh, "ResultsEngine: an id loaded twice")
        }
    }
}
