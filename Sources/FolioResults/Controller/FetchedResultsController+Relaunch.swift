import FolioStore

// A relaunch's cached order is shown from the file while a task off the main
// actor loads it whole into an engine of its own (see ``CachedOrderLoader``);
// the controller adopts that engine on a later turn, so drawing and
// scrolling never wait for the rest of a million rows. Anything that needs
// the whole order before then (a change, a lookup by object, a snapshot)
// calls ``loadWholeOrder()``, which loads it at once, and the task's work
// is dropped.

extension FetchedResultsController {
    /// Takes a relaunch's loaded order into the results. A file whose keys
    /// are damaged is replaced by a fresh fetch, reported as every section
    /// replaced, since the table has drawn the cached sections.
    func finishLoading(_ order: CachedOrder, _ loaded: LoadedOrder?) {
        if let loaded {
            engine.adopt(loaded.engine)
            return
        }
        if let cacheName { ResultsCache.delete(name: cacheName) }
        lastFetchUsedCache = false
        let old = order.sections.enumerated().map { SectionChange(type: .delete, index: $0.offset, section: $0.element.key) }
        do {
            if let plan { engine.load(try fetchKeyRows(plan, restrictedTo: nil).map { plan.row(id: $0.0, values: $0.1) }) }
        } catch {
            lastError = error
            engine.load([])
        }
        sectionCache = nil
        let new = (0..<engine.numberOfSections).map { SectionChange(type: .insert, index: $0, section: engine.section(at: $0)) }
        deliver(ResultsChangeSet(sectionChanges: old + new, objectChanges: []))
    }
}
