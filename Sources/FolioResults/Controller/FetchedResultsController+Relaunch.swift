import FolioStore

// A relaunch's cached order is shown from the file while a task off the main
// actor loads it whole into an engine of its own; the controller adopts that
// engine on a later turn, so drawing and scrolling never wait for the rest
// of a million rows. Anything that needs the whole order before then (a
// change, a lookup by object, a snapshot) loads it at once instead, and the
// task's work is dropped.

extension FetchedResultsController {
    /// Starts loading `order` off the main actor; the controller adopts it if
    /// it still shows that order when the load ends.
    func loadInBackground(_ order: CachedOrder) {
        let rows = order.rows
        Task { @MainActor [weak self, weak order] in
            let loaded = await Task.detached(priority: .medium) { rows.load() }.value
            guard let self, let order, cachedOrder === order else { return }
            finishLoading(order, loaded, apart: true)
        }
    }

    /// Loads a relaunch's whole cached order now, on the main actor.
    func loadCachedOrderNow() {
        guard let order = cachedOrder else { return }
        finishLoading(order, order.rows.load(), apart: false)
    }

    /// Replaces the cached order by its load. A file whose keys are damaged
    /// is replaced by a fresh fetch, reported as every section replaced,
    /// since the table has drawn the cached sections.
    func finishLoading(_ order: CachedOrder, _ loaded: LoadedOrder?, apart: Bool) {
        cachedOrder = nil
        cachedOrderLoadedApart = apart
        if let loaded {
            loadedEngine.adopt(loaded.engine)
            return
        }
        if let cacheName { ResultsCache.delete(name: cacheName) }
        lastFetchUsedCache = false
        let old = order.sections.enumerated().map { SectionChange(type: .delete, index: $0.offset, section: $0.element.key) }
        do {
            if let plan { loadedEngine.load(try fetchKeyRows(plan, restrictedTo: nil).map { plan.row(id: $0.0, values: $0.1) }) }
        } catch {
            lastError = error
            loadedEngine.load([])
        }
        sectionCache = nil
        let new = (0..<loadedEngine.numberOfSections).map { SectionChange(type: .insert, index: $0, section: loadedEngine.section(at: $0)) }
        deliver(ResultsChangeSet(sectionChanges: old + new, objectChanges: []))
    }
}
