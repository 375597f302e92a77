extension ResultsEngine {
    /// Installs many rows in order on several threads: each section's tree
    /// is built as one task, and its rows are placed in the location map in
    /// parts, each its own. Every ID must be an integer the map's array
    /// covers, so parts write apart and nothing grows.
    /// - Complexity: O(n), shared among the threads.
    func installInParallel(_ installs: [Install], rows: Int) {
        let part = max(Lanes.bigBatch * 4, rows / (Lanes.cores * Lanes.sharesPerCore))
        var tasks: [(install: Int, rows: Range<Int>?)] = []
        for (k, install) in installs.enumerated() {
            tasks.append((k, nil))
            for start in stride(from: 0, to: install.entries.count, by: part) {
                tasks.append((k, start..<min(start + part, install.entries.count)))
            }
        }
        var fresh = [Bool](repeating: true, count: tasks.count)
        locations.withDenseStorage(adding: rows) { dense in
            fresh.withUnsafeMutableBufferPointer { fresh in
                let work = ParallelInstall(installs: installs, tasks: tasks, dense: dense, fresh: fresh)
                Lanes.run(tasks.count) { work.run($0) }
            }
        }
        precondition(!fresh.contains(false), "ResultsEngine: an id loaded twice")
    }

    /// The tasks of one parallel install.
    private struct ParallelInstall: @unchecked Sendable {  // each task builds one section's tree or writes its own rows' slots and verdict
        let installs: [Install]
        let tasks: [(install: Int, rows: Range<Int>?)]
        let dense: UnsafeMutableBufferPointer<RowLocation>
        let fresh: UnsafeMutableBufferPointer<Bool>

        func run(_ task: Int) {
            let (k, rows) = tasks[task]
            let install = installs[k]
            guard let rows else {
                install.store.rows = OrderStatisticTree(sorted: install.entries, leads: install.leads)
                return
            }
            let slot = install.store.slot
            install.entries.withUnsafeBufferPointer { entries in
                for handle in rows {
                    let i = LocationMap<ID>.integer(entries[handle].id)!
                    precondition(i >= 0 && i < dense.count, "ResultsEngine: an id outside the range it was loaded for")
                    if dense[i].slot >= 0 { fresh[task] = false }
                    dense[i] = RowLocation(slot: slot, handle: Int32(handle))
                }
            }
        }
    }
}
