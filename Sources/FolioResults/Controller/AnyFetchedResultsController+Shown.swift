import FolioStore

// What the table reads (sections, counts, the IDs of the rows it draws) is
// answered from the cache file's checked section table and IDs while a
// relaunch's order has not been loaded into the engine, so drawing never
// waits for the keys; anything else (a change, a lookup by object, a
// snapshot) loads the whole order first.

extension AnyFetchedResultsController {
    var shownSectionCount: Int { cachedOrder.order?.numberOfSections ?? engine.numberOfSections }

    func shownSection(at index: Int) -> SectionKey {
        if let cachedOrder = cachedOrder.order { return cachedOrder.sections[index].key }
        return engine.section(at: index)
    }

    func shownRowCount(inSection index: Int) -> Int {
        if let cachedOrder = cachedOrder.order { return cachedOrder.sections[index].count }
        return engine.numberOfRows(inSection: index)
    }

    /// The ID shown at a valid index path.
    func shownID(at indexPath: IndexPath) -> Int64 {
        if let cachedOrder = cachedOrder.order { return cachedOrder.id(atRow: indexPath.row, inSection: indexPath.section) }
        return engine.id(at: indexPath)
    }

    func shownIDs(inSection section: Int, rows: Range<Int>) -> [Int64] {
        if let cachedOrder = cachedOrder.order { return cachedOrder.ids(inSection: section, rows: rows) }
        return rows.map { engine.id(at: IndexPath(row: $0, section: section)) }
    }
}

extension AnyFetchedResultsController {
    /// True while a relaunch's order is read from the cache file, not yet loaded.
    package var isReadingCachedOrder: Bool { cachedOrder.order != nil }
    /// Whether the last relaunch's order was loaded off the main actor (nil before one was loaded).
    package var cachedOrderLoadedOffMainActor: Bool? { cachedOrder.loadedApart }
}
