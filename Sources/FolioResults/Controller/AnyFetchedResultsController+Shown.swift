import FolioStore

// What the table reads (sections, counts, the IDs of the rows it draws) is
// answered from the cache file while a relaunch's order has not been loaded
// into the engine, so the first screen costs O(visible); anything else
// (a change, a lookup by object, a snapshot) loads the whole order first.

extension AnyFetchedResultsController {
    var shownSectionCount: Int { cachedOrder?.numberOfSections ?? engine.numberOfSections }

    func shownSection(at index: Int) -> SectionKey {
        if let cachedOrder { return cachedOrder.sections[index].key }
        return engine.section(at: index)
    }

    func shownRowCount(inSection index: Int) -> Int {
        if let cachedOrder { return cachedOrder.sections[index].count }
        return engine.numberOfRows(inSection: index)
    }

    /// The ID shown at a valid index path.
    func shownID(at indexPath: IndexPath) -> Int64 {
        if let id = cachedOrder?.id(atRow: indexPath.row, inSection: indexPath.section) { return id }
        // A damaged chunk loads the order afresh (and reports it); the nearest row stands in until the table hears.
        let section = min(indexPath.section, engine.numberOfSections - 1)
        let count = section >= 0 ? engine.numberOfRows(inSection: section) : 0
        precondition(count > 0, "FetchedResultsController: no row at \(indexPath) after the cached order was found damaged")
        return engine.id(at: IndexPath(row: min(indexPath.row, count - 1), section: section))
    }

    func shownIDs(inSection section: Int, rows: Range<Int>) -> [Int64] {
        if let ids = cachedOrder?.ids(inSection: section, rows: rows) { return ids }
        return rows.map { shownID(at: IndexPath(row: $0, section: section)) }
    }
}

extension AnyFetchedResultsController {
    /// True while a relaunch's order is read from the cache file, not yet loaded.
    package var isReadingCachedOrder: Bool { cachedOrder != nil }
    /// How many chunks of IDs the relaunch has read from the cache file so far.
    package var cachedChunksRead: Int { cachedOrder?.chunksRead ?? 0 }
}
