import FolioStore

extension FetchedResultsController {
    /// Changes the fetch request and follows with one change report, as a
    /// save would, instead of a reload: the objects the new request no longer
    /// matches are deleted, those it now matches inserted, sections follow,
    /// and every other object keeps its row (so a highlight can stay on it).
    /// This is how a search field narrows a table as the user types.
    ///
    /// `performFetch()` keeps Core Data's behaviour: it fetches afresh and
    /// reports nothing (call `tableView.reloadData()` after it). Before the
    /// first `performFetch()` this is a plain fetch. A change of the sort
    /// descriptors is reported as a reload: every old section deleted, every
    /// new one inserted. On a thrown error the request and results stay as they were.
    ///
    /// ```swift
    /// func searchTextDidChange(_ text: String) {
    ///     try? results.updateFetchRequest { request in
    ///         request.stringFilters = text.isEmpty ? [] : [
    ///             StringFilter(anyOf: [\Animal.commonName, \Animal.habitat], .contains(text),
    ///                          options: [.caseInsensitive, .diacriticInsensitive]),
    ///         ]
    ///     }
    /// }
    /// ```
    /// - Complexity: one query over the entity (over the m rows shown, by ID,
    ///   when the new request narrows the old and m is small), O(n) to
    ///   compare memberships, and O(k log n) for the k objects that enter or leave.
    public func updateFetchRequest(_ change: (inout FetchRequest<Entity>) throws -> Void) throws {
        managedObjectContext.processPendingChanges()
        var request = fetchRequest
        try change(&request)
        guard let current = plan else {
            fetchRequest = request
            return try performFetch()
        }
        let previous = fetchRequest
        fetchRequest = request
        do {
            let next = try KeyPlan(request: request, sectionKeyPath: sectionNameKeyPath, context: managedObjectContext)
            if next.ordersLike(current) {
                try refetchMembers(next, previous: previous, narrowing: try managedObjectContext.narrows(request, previous))
            } else {
                try refetchAll(next)
            }
        } catch {
            fetchRequest = previous
            throw error
        }
    }

    /// At most this many rows are read by ID when a filter narrows; more are
    /// read by one scan of the entity, which costs less than as many lookups.
    static var narrowingLookupLimit: Int { 65_536 }

    /// The same ordering, other members: report who left and who entered.
    /// When the new request `narrowing`ly implies the old one, only today's
    /// members can match it, so a few of them are re-read by ID instead of
    /// scanning the rows the old filter already excluded.
    private func refetchMembers(_ next: KeyPlan<Entity>, previous: FetchRequest<Entity>, narrowing: Bool) throws {
        loadWholeOrder()
        if try refetchInMemory(next, previous: previous, narrowing: narrowing) { return }
        var changes: [ResultsRowChange<Int64, RowKey, SectionKey>] = []
        var entering: [(Int64, [StoreValue])]
        if next.isWindowed {
            // Membership depends on rank: compare with the whole new window.
            entering = try fetchKeyRows(next, restrictedTo: nil)
            let members = Set(entering.map(\.0))
            for id in engine.allIDs() where !members.contains(id) {
                changes.append(ResultsRowChange(id: id, row: nil, objectChanged: false))
            }
        } else {
            // Only IDs for the scan; keys only for those that enter.
            let current = engine.allIDs()
            let restricted = narrowing && current.count <= Self.narrowingLookupLimit
            let matching =
                restricted
                ? try managedObjectContext.fetchKeys(
                    fetchRequestForAll(unordered: true), keyPaths: [], restrictedTo: Set(current.map(objectID))
                )
                .map { engineID($0.id) }
                : try managedObjectContext.fetchIDs(fetchRequestForAll(unordered: true)).map(engineID)
            let members = RowIDSet(matching)
            for id in current where !members.contains(id) { changes.append(ResultsRowChange(id: id, row: nil, objectChanged: false)) }
            // Read among today's members, none can be new.
            let newcomers = restricted ? [] : matching.filter { !engine.contains($0) }
            if newcomers.count > 4096 && newcomers.count * 2 > matching.count {
                // Mostly new results: one ordered scan costs less than looking each up by ID.
                entering = try fetchKeyRows(next, restrictedTo: nil).filter { !engine.contains($0.0) }
            } else {
                entering = try fetchKeyRows(next, restrictedTo: newcomers)
            }
        }
        let links = next.related.isEmpty ? [] : try fetchRelatedRows(next, restrictedTo: nil)
        var rows: [Int64] = []
        for (id, values) in entering {
            changes.append(ResultsRowChange(id: id, row: next.row(id: id, values: values), objectChanged: false))
            rows.append(id)
        }
        applyMembership(next, changes: changes, entering: rows, links: links)
    }

    /// Takes the new plan and applies who left and who entered (`entering`
    /// lists the latter's IDs), then reports it.
    func applyMembership(
        _ next: KeyPlan<Entity>, changes: [ResultsRowChange<Int64, RowKey, SectionKey>],
        entering rows: @autoclosure () -> [Int64], links: [(Int64, [StoreValue])]?
    ) {
        changeMembers(next, entering: rows(), links: links) { engine.apply(changes) }
        for change in changes where change.row == nil { forget(change.id) }
    }

    /// What every change of members under a new plan does around `change`,
    /// which edits the engine and returns the report: the plan and the
    /// related maps are taken afresh from `links` (kept as they are when it
    /// is nil: they cover every object of the entity, so a change of string
    /// filters alone leaves them right), the cache file and the section cache
    /// dropped, the entering rows' objects read when all are kept (only then
    /// is `entering` asked), and the search session kept in step. The caller
    /// lets go of the rows that left.
    func changeMembers(
        _ next: KeyPlan<Entity>, entering rows: @autoclosure () -> [Int64], links: [(Int64, [StoreValue])]?,
        change: () -> ResultsChangeSet<Int64, SectionKey>
    ) {
        plan = next
        // nil: the rows' related objects are already linked (a search narrowing kept rows).
        if let links {
            relatedKeys = RelatedKeyIndex(next.related)
            relatedKeys.link(links, removed: [])
        }
        if let cacheName { ResultsCache.delete(name: cacheName) }
        let report = change()
        sectionCache = nil
        if fetchRequest.fetchBatchSize == 0 {
            let rows = rows()
            if !rows.isEmpty { for (id, object) in (try? prefetch(rows)) ?? [:] { resident[id] = object } }
        }
        keepSearchSession()
        deliver(report)
    }

    /// Another ordering: load afresh and report every section replaced.
    func refetchAll(_ next: KeyPlan<Entity>) throws {
        loadWholeOrder()
        let oldSections = (0..<engine.numberOfSections).map { SectionChange(type: .delete, index: $0, section: engine.section(at: $0)) }
        try performFetch()
        let newSections = (0..<engine.numberOfSections).map { SectionChange(type: .insert, index: $0, section: engine.section(at: $0)) }
        deliver(ResultsChangeSet(sectionChanges: oldSections + newSections, objectChanges: []))
    }
}

extension KeyPlan {
    /// Whether rows are keyed and sectioned alike under both plans, so that a
    /// row keeps its key when only the members change.
    func ordersLike(_ other: KeyPlan) -> Bool {
        keyPaths == other.keyPaths && ascending == other.ascending && sectioned == other.sectioned
    }
}
