import FolioStore

extension FetchedResultsController {
    /// Answers a change of the request's string filters from memory, when
    /// each filtered attribute is a String attribute of the entity itself
    /// and the rest of the request is that of a kept ``SearchSession``, or of
    /// the current results when they have no filters. A change of more than
    /// ``itemizedSearchLimit`` rows rebuilds the results in order and is
    /// reported as their sections replaced.
    /// Returns false, having done nothing, when the store must be asked.
    /// - Complexity: O(b) for the b bytes of text of the rows tested (only
    ///   today's members when the filter narrows; none for filters typed
    ///   before), O(m) to compare the members before and after, plus
    ///   O(k log n) for k changes reported row by row, or O(m) to rebuild.
    func refetchInMemory(_ next: KeyPlan<Entity>, previous: FetchRequest<Entity>, narrowing: Bool) throws -> Bool {
        guard !next.isWindowed, unread.isEmpty else {
            searchSession = nil
            return false
        }
        guard try keepSession(previous: previous) else { return false }
        guard let indexes = try searchIndexes(for: fetchRequest.stringFilters, plan: next) else {
            searchSession = nil
            return false
        }
        let showedEveryRow = searchSession!.memberCount == searchSession!.count
        let scan = searchSession!.narrow(fetchRequest.stringFilters, with: indexes, narrowing: narrowing)
        let sections = searchSession!.sections, starts = searchSession!.starts
        // Rows shown again are the results' now (their objects, when loaded, are resident).
        defer { searchSession?.unhide(scan) { engine.contains($0) } }
        if scan.changeCount <= itemizedSearchLimit {
            let leaving = scan.leaving(sections, starts: starts)
            for id in leaving { if let object = resident[id] { searchSession!.hidden[id] = object } }
            let changes =
                leaving.map { ResultsRowChange<Int64, RowKey, SectionKey>(id: $0, row: nil, objectChanged: false) }
                + scan.enteringChanges(sections, starts: starts)
            applyMembership(next, changes: changes, entering: scan.enteringIDs(sections, starts: starts), links: nil)
            return true
        }
        // Many rows change: rebuild in order (or take back every row) and report the sections replaced.
        changeMembers(next, entering: scan.enteringIDs(sections, starts: starts), links: nil) {
            let replaced = (0..<engine.numberOfSections).map { SectionChange(type: .delete, index: $0, section: engine.section(at: $0)) }
            let rebuilt = searchSession!.results(scan, fixedSection: engine.fixedSection)
            searchSession!.setAside(engine, everyRow: showedEveryRow)
            engine.adopt(rebuilt)
            let inserted = (0..<engine.numberOfSections).map { SectionChange(type: .insert, index: $0, section: engine.section(at: $0)) }
            return ResultsChangeSet(sectionChanges: replaced + inserted, objectChanges: [])
        }
        if searchSession != nil { for (id, object) in resident.objects where !engine.contains(id) { searchSession!.hidden[id] = object } }
        resident.keepOnly { engine.contains($0) }
        return true
    }

    /// Readies a search over `keyPaths` (any of them matching, folded by
    /// `options`) before its first keystroke: the unfiltered rows are kept
    /// and their texts folded now, so that every keystroke, the first too,
    /// is answered from memory. Does nothing when the results are filtered
    /// already or the store must answer (a text through a relationship, a
    /// limit); ``endSearch()`` lets it go.
    ///
    /// ```swift
    /// results.prepareSearch([\Animal.commonName, \Animal.habitat], options: [.caseInsensitive, .diacriticInsensitive])
    /// ```
    /// - Complexity: O(n), and one query when an attribute is not a sort key.
    package func prepareSearch(_ keyPaths: [PartialKeyPath<Entity>], options: String.CompareOptions) {
        guard hasFetched, let plan, !plan.isWindowed, unread.isEmpty, !keyPaths.isEmpty else { return }
        let filter = StringFilter(anyOf: keyPaths, .contains(""), options: options)
        loadWholeOrder()
        do {
            guard try keepSession(previous: fetchRequest) else { return }
            if try searchIndexes(for: [filter], plan: plan) == nil { searchSession = nil } else { searchSession!.prepared = true }
        } catch {
            // The first keystroke asks the store instead, and reports its failure.
            searchSession = nil
        }
    }

    /// Lets go of what a search kept (its rows and folded texts) once the
    /// results have no string filters; a filter in force keeps them.
    ///
    /// ```swift
    /// results.endSearch()
    /// ```
    package func endSearch() {
        guard fetchRequest.stringFilters.isEmpty, searchSession != nil else { return }
        searchSession = nil
        // The search's rows, texts and rebuilt results were large and short-lived: give their pages back.
        FreedMemory.giveBack()
    }

    /// Whether the next search keystroke is answered from rows in memory.
    ///
    /// ```swift
    /// #expect(controller.searchesInMemory)
    /// ```
    package var searchesInMemory: Bool { searchSession != nil }

    /// The folded texts the kept search holds, one per filter typed (for
    /// checking that they are let go).
    ///
    /// ```swift
    /// weak var index = controller.keptSearchIndexes.first
    /// ```
    package var keptSearchIndexes: [AnyObject] { searchSession?.indexes ?? [] }

    /// After the results changed for a new request: a search session stays
    /// only while the request filters, and agrees with the results as they now are.
    func keepSearchSession() {
        guard searchSession != nil else { return }
        if fetchRequest.stringFilters.isEmpty && !searchSession!.prepared {
            searchSession = nil
        } else {
            searchSession!.generation = engine.generation
        }
    }

    /// Keeps a search session that still agrees with the results and the
    /// request, or starts one from results without filters (`previous` is
    /// their request). False when neither can be had.
    private func keepSession(previous: FetchRequest<Entity>) throws -> Bool {
        var unfiltered = fetchRequest
        unfiltered.stringFilters = []
        if let session = searchSession, try !session.agrees(with: engine) || !sameMembers(session.request, unfiltered) {
            searchSession = nil
        }
        if searchSession != nil { return true }
        // Only results without filters can start a session: they are all its rows.
        guard previous.stringFilters.isEmpty, try sameMembers(previous, unfiltered) else { return false }
        searchSession = SearchSession(request: unfiltered, sharing: engine)
        return true
    }

    /// Whether two requests without string filters match the same objects.
    private func sameMembers(_ a: FetchRequest<Entity>, _ b: FetchRequest<Entity>) throws -> Bool {
        try managedObjectContext.narrows(a, b) && managedObjectContext.narrows(b, a)
    }
}
