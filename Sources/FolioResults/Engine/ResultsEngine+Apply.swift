extension ResultsEngine {
    /// Applies one batch and reports it in UITableView batch-update coordinates:
    /// section deletes (old indexes) and inserts (new), then object deletes
    /// (old paths), inserts (new), moves (old → new, only for rows whose own
    /// position among the others changed) and updates (old path, new alongside).
    ///
    /// A changed row stays put when it keeps its section and its gap between
    /// unchanged rows; among several such rows in one gap, the longest run
    /// that kept its order stays and the rest move. A move out of a deleted
    /// section, into an inserted one, or between equal paths is reported as
    /// delete + insert.
    ///
    /// The arriving rows are placed section by section, run by run (sorted
    /// only where a section is re-linked); each section is edited in place when few of its rows change,
    /// and re-linked in one ordered pass when many do (see ``SectionEdit``),
    /// so a batch that empties or fills most of a section costs O(m) for its
    /// m rows rather than O(m log m) tree edits. Rows are tracked by their
    /// index in the batch, not in maps, and a row that moves within its
    /// section keeps its node. A big batch's sections are edited on several
    /// threads at once (see ``EditLanes``).
    ///
    /// ```swift
    /// let report = engine.apply([ResultsRowChange(id: 4, row: ResultsRow(id: 4, key: "Zebu", section: "Z"), objectChanged: true)])
    /// ```
    /// - Complexity: O(k log n) for k changes against n rows, and at most
    ///   O(m + k log k) for a section of m rows that k of them change.
    package func apply<S: Sequence>(_ changes: S) -> ResultsChangeSet<ID, Section> where S.Element == ResultsRowChange<ID, Key, Section> {
        apply(distinct: Self.oneChangePerObject(Array(changes)))
    }

    /// ``apply(_:)`` for a batch the caller has made one change per object
    /// (the controller's are), so no set of IDs is built to merge them.
    ///
    /// ```swift
    /// let report = engine.apply(distinct: changes)
    /// ```
    package func apply(distinct merged: [ResultsRowChange<ID, Key, Section>]) -> ResultsChangeSet<ID, Section> {
        var sources: [Int32] = []
        return apply(distinct: merged, sources: &sources)
    }

    /// ``apply(distinct:)`` that also gives, for each object change of the
    /// report, the index in `merged` of the change it comes from (a moved
    /// row told as delete + insert has two), so that the caller finds what
    /// it keeps per change without a lookup by ID.
    ///
    /// A batch goes through four collaborators, each readable and tested
    /// alone: ``BatchClassification`` (what each change does to the sections
    /// it touches), ``SectionPlacement`` (where each arrival goes, and the
    /// sections made), the section edits (``SectionEdit``, on several
    /// threads for a big batch), and ``ChangeReportBuilder`` (the report in
    /// table coordinates, sorted).
    ///
    /// ```swift
    /// var sources: [Int32] = []
    /// let report = engine.apply(distinct: changes, sources: &sources)
    /// ```
    package func apply(distinct merged: [ResultsRowChange<ID, Key, Section>], sources: inout [Int32]) -> ResultsChangeSet<ID, Section> {
        assert(Set(merged.map(\.id)).count == merged.count, "ResultsEngine: an object changed twice in a batch said to be distinct")
        generation &+= 1
        var batch = classify(merged)
        let placement = place(merged, &batch)
        // Take out what left or moved and put in what arrived, section by
        // section; then the identifier map learns the new nodes.
        let rows = UnsafeBatchRows(count: merged.count)
        defer { rows.deallocate() }
        perform(batch.edits, rows: rows, changes: merged.count)
        learnLocations(merged, batch)
        var sectionChanges: [SectionChange<Section>] = []
        let indexes = settleSections(batch, placement, changes: &sectionChanges)
        var report = ChangeReportBuilder(
            sections: indexes, rows: rows, deleted: batch.deleted, inserted: placement.inserted, inPlace: batch.inPlace)
        let relocations = report.relocations(placement.relocated)
        report.add(relocations, staying: rowsKeepingTheirPlace(relocations, edits: batch.editOfSlot, isNew: indexes.isNew))
        return report.build(sectionChanges: sectionChanges, ids: merged.map(\.id), sources: &sources)
    }

    /// One change per object: later changes of the same object win, and it counts as changed if any says so.
    private static func oneChangePerObject(_ changes: [ResultsRowChange<ID, Key, Section>]) -> [ResultsRowChange<ID, Key, Section>] {
        var seen = Set<ID>(minimumCapacity: changes.count)
        if changes.allSatisfy({ seen.insert($0.id).inserted }) { return changes }
        var byID: [ID: ResultsRowChange<ID, Key, Section>] = [:]
        for change in changes {
            let earlier = byID[change.id]
            byID[change.id] = ResultsRowChange(
                id: change.id, row: change.row, objectChanged: (earlier?.objectChanged ?? false) || change.objectChanged)
        }
        return Array(byID.values)
    }
}
