/// The sorted, sectioned result set with an exact change report, independent
/// of any store: the heart of `FetchedResultsController`.
///
/// Rows live in one order-statistic tree per section (keyed by sort key, then
/// identifier); sections live in another, so index paths come from ranks.
/// `apply(_:)` re-places only the rows that changed and reports the changes
/// in UITableView batch-update coordinates.
///
/// ```swift
/// let engine = ResultsEngine<Int, String, String>()
/// engine.load([ResultsRow(id: 1, key: "Ant", section: "A"), ResultsRow(id: 2, key: "Bee", section: "B")])
/// let report = engine.apply([ResultsRowChange(id: 1, row: nil, objectChanged: true)])
/// // report.sectionChanges == [delete section 0 (A)], objectChanges == [delete 1 [0, 0]]
/// ```
package final class ResultsEngine<
    ID: Hashable & Comparable & Sendable, Key: Comparable & Sendable, Section: Hashable & Comparable & Sendable
> {
    struct Entry: Comparable {
        var key: Key
        var id: ID
        static func < (a: Entry, b: Entry) -> Bool { a.key < b.key || (a.key == b.key && a.id < b.id) }
        static func == (a: Entry, b: Entry) -> Bool { a.id == b.id && a.key == b.key }
    }

    /// One section's rows.
    final class SectionStore {
        let section: Section
        let slot: Int32
        var rows = OrderStatisticTree<Entry>()
        init(section: Section, slot: Int32) {
            self.section = section
            self.slot = slot
        }
    }

    typealias Location = RowLocation

    var sectionOrder = OrderStatisticTree<Section>()
    var stores: [Section: SectionStore] = [:]
    var slots: [SectionStore?] = []
    var freeSlots: [Int32] = []
    var locations = LocationMap<ID>()
    /// How sections are edited by a batch; tests compare the strategies.
    package var editStrategy = EditStrategy.automatic
    /// How many threads edit a batch's sections; tests compare the counts.
    package var editLanes = EditLanes.automatic
    /// The one section of unsectioned results; it exists even when empty.
    package let fixedSection: Section?
    /// Counts the edits of the contents (a batch, a load, an adoption, a
    /// renaming), so a copy taken earlier knows whether it still agrees.
    package internal(set) var generation: UInt64 = 0

    /// Creates an empty engine. Pass `fixedSection` for unsectioned results:
    /// every row then belongs to it and it is never deleted, as Core Data
    /// keeps one section when there is no section key path.
    ///
    /// ```swift
    /// let flat = ResultsEngine<Int, Int, Int>(fixedSection: 0)
    /// ```
    package init(fixedSection: Section? = nil) {
        self.fixedSection = fixedSection
        reset()
    }

    func reset() {
        generation &+= 1
        sectionOrder = OrderStatisticTree()
        stores = [:]
        slots = []
        freeSlots = []
        locations = LocationMap()
        if let fixedSection { _ = store(for: fixedSection) }
    }

    func store(for section: Section) -> SectionStore {
        if let store = stores[section] { return store }
        let slot = freeSlots.popLast() ?? Int32(slots.count)
        let store = SectionStore(section: section, slot: slot)
        if Int(slot) == slots.count { slots.append(store) } else { slots[Int(slot)] = store }
        stores[section] = store
        sectionOrder.insert(section)
        return store
    }

    @inline(__always) func storeOf(_ location: Location) -> SectionStore { slots[Int(location.slot)]! }

    func dropStore(_ store: SectionStore) {
        sectionOrder.remove(sectionOrder.handle(of: store.section)!)
        stores[store.section] = nil
        slots[Int(store.slot)] = nil
        freeSlots.append(store.slot)
    }

    /// `entries` in an array of their count plus `room`, copied only when
    /// theirs has less room or over 1/16 more (appending grows by doubling).
    static func sized(_ entries: [Entry], room: Int) -> [Entry] {
        let wanted = entries.count + room
        guard entries.capacity < wanted || entries.capacity > wanted + entries.count / 16 else { return entries }
        return Array(unsafeUninitializedCapacity: wanted) { buffer, n in n = buffer.initialize(fromContentsOf: entries) }
    }

    /// Room in the location map for the rows of `sections` and an eighth
    /// more, so that the first inserts after a load do not rehash every row at once.
    func reserveLocations<C: Collection>(for sections: C) where C.Element: Collection, C.Element.Element == Entry {
        let total = sections.reduce(0) { $0 + $1.count }
        var limit = 0
        if LocationMap<ID>.isInteger {
            for entries in sections { for entry in entries { limit = max(limit, LocationMap<ID>.integer(entry.id) ?? 0) } }
        }
        locations.reserve(total + total / 8 + 16, integersBelow: limit + 1)
    }

    /// Gives rows new identifiers, as a save gives permanent IDs for
    /// temporary ones. A row whose new identifier sorts in its old one's
    /// place among equal keys (the usual case) stays, and nothing is
    /// reported. One whose new identifier sorts elsewhere (IDs drawn in
    /// another order than the saves committed) moves, and the report
    /// returned says where. Returns how many of the old identifiers were in
    /// the results, with that report.
    ///
    /// ```swift
    /// let (renamed, moved) = engine.renameIDs([temporary: permanent])
    /// ```
    /// - Complexity: O(k log k) for k renamed rows, and O(log n) more for each that moves.
    @discardableResult
    package func renameIDs(_ mapping: [ID: ID]) -> (renamed: Int, moved: ResultsChangeSet<ID, Section>) {
        generation &+= 1
        var renamed = 0
        var misplaced: [(location: Location, entry: Entry)] = []
        // In the old identifiers' order: a neighbour renamed by the same call is checked by its new identifier.
        for (old, new) in mapping.sorted(by: { $0.key < $1.key }) {
            guard let location = locations.removeValue(forKey: old) else { continue }
            renamed += 1
            locations[new] = location
            let store = storeOf(location)
            let entry = Entry(key: store.rows[location.handle].key, id: new)
            if store.rows.fits(entry, at: location.handle) {
                store.rows.replace(location.handle, with: entry, lead: Self.lead(of: entry.key))
            } else {
                misplaced.append((location, entry))
            }
        }
        return (renamed, misplaced.isEmpty ? ResultsChangeSet() : move(misplaced))
    }

    /// Puts renamed rows where their new identifiers sort, and reports it:
    /// a move, or a delete and an insert for a row that keeps its path.
    private func move(_ misplaced: [(location: Location, entry: Entry)]) -> ResultsChangeSet<ID, Section> {
        // Each new identifier names its location already.
        let before = misplaced.map { indexPath(of: $0.entry.id)! }
        for m in misplaced { storeOf(m.location).rows.detach(m.location.handle) }
        for m in misplaced { _ = storeOf(m.location).rows.reattachRanked(m.location.handle, as: m.entry, lead: Self.lead(of: m.entry.key)) }
        var deletes: [ObjectChange<ID>] = [], inserts: [ObjectChange<ID>] = [], moves: [ObjectChange<ID>] = []
        for (m, old) in zip(misplaced, before) {
            let new = indexPath(of: m.entry.id)!
            if old == new {
                deletes.append(ObjectChange(type: .delete, id: m.entry.id, indexPath: old, newIndexPath: nil))
                inserts.append(ObjectChange(type: .insert, id: m.entry.id, indexPath: nil, newIndexPath: new))
            } else {
                moves.append(ObjectChange(type: .move, id: m.entry.id, indexPath: old, newIndexPath: new))
            }
        }
        deletes.sort { $0.indexPath! < $1.indexPath! }
        inserts.sort { $0.newIndexPath! < $1.newIndexPath! }
        moves.sort { $0.newIndexPath! < $1.newIndexPath! }
        return ResultsChangeSet(objectChanges: deletes + inserts + moves)
    }

    /// Replaces the contents with another engine's, leaving that one empty:
    /// an engine built apart (off the main actor) takes its place at once.
    ///
    /// ```swift
    /// engine.adopt(loaded)
    /// ```
    /// - Complexity: O(1).
    package func adopt(_ other: ResultsEngine) {
        precondition(other.fixedSection == fixedSection, "ResultsEngine: adopting an engine with another fixed section")
        sectionOrder = other.sectionOrder
        stores = other.stores
        slots = other.slots
        freeSlots = other.freeSlots
        locations = other.locations
        generation &+= 1
        other.reset()
    }

    /// Replaces the contents with `rows` (identifiers must be unique).
    ///
    /// ```swift
    /// engine.load(rows)
    /// ```
    /// - Complexity: O(n log n), and O(n) for rows already in order
    ///   (sections are grouped by runs, and each section's sort finds it sorted).
    package func load<S: Sequence>(_ rows: S) where S.Element == ResultsRow<ID, Key, Section> {
        load { add in for row in rows { add(row) } }
    }

    /// ``load(_:)`` with the rows handed over one at a time by `build`, so
    /// that no list of them is made first (a first fetch streams a million
    /// rows from the store straight into their sections).
    ///
    /// ```swift
    /// engine.load { add in for row in rows { add(row) } }
    /// ```
    package func load(building build: ((ResultsRow<ID, Key, Section>) -> Void) throws -> Void) rethrows {
        reset()
        var grouped: [Section: [Entry]] = [:]
        // One map lookup per run of rows in the same section, not per row.
        var run: [Entry] = []
        var runSection: Section?
        func closeRun() {
            guard let section = runSection, !run.isEmpty else { return }
            if grouped[section] == nil { grouped[section] = Self.sized(run, room: 0) } else { grouped[section]!.append(contentsOf: run) }
            run = []
        }
        try build { row in
            precondition(fixedSection == nil || row.section == fixedSection, "ResultsEngine: row \(row.id) is outside the fixed section")
            if runSection != row.section {
                closeRun()
                runSection = row.section
            }
            run.append(Entry(key: row.key, id: row.id))
        }
        closeRun()
        reserveLocations(for: grouped.values)
        // Each section's rows leave the grouping as its tree takes them, so the two are never both whole.
        for section in Array(grouped.keys) {
            var entries = grouped.removeValue(forKey: section)!
            entries.sort()
            // The tree keeps the array it is given, and its nodes get the same room, about
            // 1/64: a full array would be copied whole by the first batch that adds a row.
            entries = Self.sized(entries, room: entries.count / 64 + 8)
            install(section, sorted: ContiguousArray(entries), leads: ContiguousArray(entries.lazy.map { Self.lead(of: $0.key) }))
        }
    }
}
