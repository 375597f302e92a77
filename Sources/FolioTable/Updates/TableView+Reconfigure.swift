extension TableView {
    /// Asks the data source again for the cells of visible rows, keeping
    /// their selection (UIKit's `reconfigureRows`, iOS 15). Paths are in the
    /// table's current coordinates; rows out of view are skipped, as their
    /// cells are made fresh when they scroll in.
    ///
    /// ```swift
    /// table.reconfigureRows(at: [IndexPath(row: 2, section: 0)])
    /// ```
    ///
    /// - Complexity: O(paths).
    public func reconfigureRows(at indexPaths: [IndexPath]) {
        precondition(batchDepth == 0, "reconfigureRows(at: \(indexPaths)) inside a batch")
        for path in indexPaths {
            guard let old = visibleCells[path] else { continue }
            recycle(old, at: path)
            visibleCells[path] = makeCell(at: path)
        }
    }
}
