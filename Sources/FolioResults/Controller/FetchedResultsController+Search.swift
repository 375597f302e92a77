import FolioStore

extension FetchedResultsController {
    /// The results of the request without its string filters, kept in order
    /// while a search types on, with the folded texts the filters read, so
    /// that each keystroke is answered from memory instead of a scan of the store.
    struct SearchBase {
        /// The request these are the results of; it has no string filters.
        let request: FetchRequest<Entity>
        /// The rows, section by section in order, with their leads. The
        /// engine shares these arrays while it shows whole sections.
        let sections: SearchScan.Sections
        /// The controller's engine generation this base last agreed with:
        /// any other edit of the results (a save, a fetch) leaves it stale.
        var generation: UInt64
        /// Which of the rows, in order, are in the results now, and how many.
        var members: [Bool]
        var memberCount: Int
        /// The folded texts of the filters typed so far, one index per filter.
        var indexes: [SearchIndex] = []
        /// The engine of every row, set aside while a filter narrows them,
        /// so that erasing the filter takes it back instead of rebuilding it.
        var everyRow: Engine?
        /// The objects of rows the filters hide, kept as they were loaded, so
        /// that rows shown again need no load and the search does not make
        /// and free a copy of every object it hides and shows again.
        var hidden: [Int64: ManagedObject] = [:]
        /// Kept while the request has no filters, until ``endSearch()``
        /// (``prepareSearch(_:options:)`` began a search that may type on).
        var prepared = false
        var count: Int { members.count }
    }

    /// Answers a change of the request's string filters from memory, when
    /// each filtered attribute is a String attribute of the entity itself
    /// and the rest of the request is that of a kept ``SearchBase``, or of
    /// the current results when they have no filters. A change of more than
    /// ``itemizedSearchLimit`` rows rebuilds the results in order and is
    /// reported as their sections replaced.
    /// Returns false, having done nothing, when the store must be asked.
    /// - Complexity: O(b) for the b bytes of text of the rows tested (only
    ///   today's members when the filter narrows), O(n) to compare
    ///   memberships, plus O(k log n) for k changes reported row by row.
    func refetchInMemory(_ next: KeyPlan<Entity>, previous: FetchRequest<Entity>, narrowing: Bool) throws -> Bool {
        guard !next.isWindowed, unread.isEmpty else {
            searchBase = nil
            return false
        }
        guard try keepBase(previous: previous) else { return false }
        guard let indexes = try searchIndexes(for: fetchRequest.stringFilters, plan: next) else {
            searchBase = nil
            return false
        }
        let base = searchBase!
        // Rows that left for an earlier filter cannot meet a narrower one: only members are tested.
        var verdicts = narrowing ? base.members : [Bool](repeating: true, count: base.count)
        for (filter, index) in zip(fetchRequest.stringFilters, indexes) { index.narrow(&verdicts, to: filter.textTest) }
        let scan = SearchScan.Outcome(verdicts: verdicts, members: base.members, sections: base.sections)
        searchBase!.members = verdicts
        searchBase!.memberCount = scan.count
        defer {
            // Rows shown again are the results' now (their objects, when loaded, are resident).
            if searchBase != nil && !searchBase!.hidden.isEmpty {
                for (s, i) in scan.entering { searchBase!.hidden[base.sections[Int(s)].entries[Int(i)].id] = nil }
            }
        }
        if scan.leaving.count + scan.entering.count <= itemizedSearchLimit {
            for id in scan.leaving { if let object = resident[id] { searchBase!.hidden[id] = object } }
            let changes =
                scan.leaving.map { ResultsRowChange<Int64, RowKey, SectionKey>(id: $0, row: nil, objectChanged: false) }
                + scan.enteringChanges(base.sections)
            applyMembership(next, changes: changes, entering: scan.enteringIDs(base.sections), links: nil)
            return true
        }
        // Many rows change: rebuild in order (or take back every row) and report the sections replaced.
        changeMembers(next, entering: scan.enteringIDs(base.sections), links: nil) {
            let replaced = (0..<engine.numberOfSections).map { SectionChange(type: .delete, index: $0, section: engine.section(at: $0)) }
            let rebuilt: Engine
            if scan.count == base.count, let every = searchBase!.everyRow {
                rebuilt = every
                searchBase!.everyRow = nil
            } else {
                rebuilt = Engine(fixedSection: engine.fixedSection)
                rebuilt.load(sorted: scan.kept(base.sections))
            }
            if base.memberCount == base.count && searchBase!.everyRow == nil {
                let every = Engine(fixedSection: engine.fixedSection)
                every.adopt(engine)
                searchBase!.everyRow = every
            }
            engine.adopt(rebuilt)
            let inserted = (0..<engine.numberOfSections).map { SectionChange(type: .insert, index: $0, section: engine.section(at: $0)) }
            return ResultsChangeSet(sectionChanges: replaced + inserted, objectChanges: [])
        }
        if searchBase != nil { for (id, object) in resident where !engine.contains(id) { searchBase!.hidden[id] = object } }
        resident = resident.filter { engine.contains($0.key) }
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
        do {
            guard try keepBase(previous: fetchRequest) else { return }
            if try searchIndexes(for: [filter], plan: plan) == nil { searchBase = nil } else { searchBase!.prepared = true }
        } catch {
            // The first keystroke asks the store instead, and reports its failure.
            searchBase = nil
        }
    }

    /// Lets go of what a search kept (its rows and folded texts) once the
    /// results have no string filters; a filter in force keeps them.
    ///
    /// ```swift
    /// results.endSearch()
    /// ```
    package func endSearch() {
        guard fetchRequest.stringFilters.isEmpty, searchBase != nil else { return }
        searchBase = nil
        // The search's rows, texts and rebuilt results were large and short-lived: give their pages back.
        FreedMemory.giveBack()
    }

    /// Whether the next search keystroke is answered from rows in memory.
    ///
    /// ```swift
    /// #expect(controller.searchesInMemory)
    /// ```
    package var searchesInMemory: Bool { searchBase != nil }

    /// The folded texts the kept search holds, one per filter typed (for
    /// checking that they are let go).
    ///
    /// ```swift
    /// weak var index = controller.keptSearchIndexes.first
    /// ```
    package var keptSearchIndexes: [AnyObject] { searchBase?.indexes ?? [] }

    /// After the results changed for a new request: a base stays only while
    /// the request filters, and agrees with the results as they now are.
    func keepSearchBase() {
        guard searchBase != nil else { return }
        if fetchRequest.stringFilters.isEmpty && !searchBase!.prepared {
            searchBase = nil
        } else {
            searchBase!.generation = engine.generation
        }
    }

    /// Keeps a base that still agrees with the results and the request, or
    /// makes one from results without filters (`previous` is their request).
    /// False when neither can be had.
    private func keepBase(previous: FetchRequest<Entity>) throws -> Bool {
        var unfiltered = fetchRequest
        unfiltered.stringFilters = []
        if let base = searchBase, try base.generation != engine.generation || !sameMembers(base.request, unfiltered) {
            searchBase = nil
        }
        if searchBase != nil { return true }
        // Only results without filters can become a base: they are all its rows.
        guard previous.stringFilters.isEmpty, try sameMembers(previous, unfiltered) else { return false }
        let sections = engine.sortedSections()
        // The engine takes the base's arrays, so that the search holds one copy of the rows, not two.
        let shared = Engine(fixedSection: engine.fixedSection)
        shared.load(sorted: sections)
        engine.adopt(shared)
        searchBase = SearchBase(
            request: unfiltered, sections: sections, generation: engine.generation,
            members: Array(repeating: true, count: engine.count), memberCount: engine.count)
        return true
    }

    /// Whether two requests without string filters match the same objects.
    private func sameMembers(_ a: FetchRequest<Entity>, _ b: FetchRequest<Entity>) throws -> Bool {
        try managedObjectContext.narrows(a, b) && managedObjectContext.narrows(b, a)
    }
}
