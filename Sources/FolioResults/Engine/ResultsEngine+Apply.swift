extension ResultsEngine {
    /// A changed row that stays in the results under new keys.
    struct Relocation {
        var id: ID
        var oldStore: SectionStore
        var oldPath: IndexPath
        var newStore: SectionStore
        var newPath: IndexPath
    }

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
    /// section keeps its node.
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
    /// ```swift
    /// var sources: [Int32] = []
    /// let report = engine.apply(distinct: changes, sources: &sources)
    /// ```
    package func apply(distinct merged: [ResultsRowChange<ID, Key, Section>], sources: inout [Int32]) -> ResultsChangeSet<ID, Section> {
        assert(Set(merged.map(\.id)).count == merged.count, "ResultsEngine: an object changed twice in a batch said to be distinct")
        generation &+= 1
        // 1. Classify: what leaves each old section and what arrives where.
        var editOfSlot = [SectionEdit?](repeating: nil, count: slots.count)
        var edits: [SectionEdit] = []
        func edit(_ store: SectionStore) -> SectionEdit {
            let slot = Int(store.slot)
            if slot >= editOfSlot.count { editOfSlot.append(contentsOf: repeatElement(nil, count: slot + 1 - editOfSlot.count)) }
            if let existing = editOfSlot[slot] { return existing }
            let created = SectionEdit(store)
            editOfSlot[slot] = created
            edits.append(created)
            return created
        }
        var deleted: [(change: Int32, store: SectionStore)] = []
        var inPlace: [(change: Int32, store: SectionStore)] = []
        // Arrivals by change index: rows are read where they lie, not copied.
        var arrivals: [(change: Int32, from: SectionStore?, handle: Handle)] = []
        for index in merged.indices {
            let c = Int32(index)
            let location = locations[merged[index].id]
            let hasRow = merged[index].row != nil
            guard let location else {
                if hasRow { arrivals.append((c, nil, -1)) }
                continue
            }
            let store = storeOf(location)
            guard hasRow else {
                edit(store).departing.append((location.handle, c, false))
                deleted.append((c, store))
                continue
            }
            if store.section == merged[index].row!.section {
                if store.rows[location.handle].key == merged[index].row!.key {
                    if merged[index].objectChanged {
                        edit(store).staying.append((location.handle, c))
                        inPlace.append((c, store))
                    }
                } else {
                    edit(store).departing.append((location.handle, c, true))
                    arrivals.append((c, store, location.handle))
                }
            } else {
                edit(store).departing.append((location.handle, c, false))
                arrivals.append((c, store, -1))
            }
        }
        // Old section indexes, before any section comes.
        let oldSections = edits.map(\.store)
        for store in oldSections { store.oldIndex = sectionOrder.rank(of: store.section) }
        // Placed run by run: one section lookup per run of arrivals in the same section
        // (the controller passes them in key order, so a run is usually a whole section).
        var insertedStores: [SectionStore] = []
        var inserted: [(change: Int32, store: SectionStore)] = []
        var relocated: [(change: Int32, from: SectionStore, to: SectionStore)] = []
        var runStore: SectionStore?
        for arrival in arrivals {
            let c = Int(arrival.change)
            if runStore?.section != merged[c].row!.section {
                let section = merged[c].row!.section
                precondition(fixedSection == nil || section == fixedSection, "ResultsEngine: row \(merged[c].id) is outside the fixed section")
                if let existing = stores[section] {
                    runStore = existing
                } else {
                    let created = store(for: section)
                    created.isNew = true
                    insertedStores.append(created)
                    runStore = created
                }
            }
            let store = runStore!
            edit(store).arriving.append((Entry(key: merged[c].row!.key, id: merged[c].id), arrival.change, arrival.handle))
            if let from = arrival.from { relocated.append((arrival.change, from, store)) } else { inserted.append((arrival.change, store)) }
        }

        // 2. Take out what left or moved and put in what arrived, section by section.
        var rows = BatchRows(count: merged.count)
        for work in edits { perform(work, rows: &rows) }
        for item in deleted { locations[merged[Int(item.change)].id] = nil }

        // 3. Sections that emptied go; new ones arrive; then the new indexes.
        var report = ResultsChangeSet<ID, Section>()
        for store in oldSections where store.rows.isEmpty && store.section != fixedSection {
            report.sectionChanges.append(SectionChange(type: .delete, index: store.oldIndex, section: store.section))
            dropStore(store)
        }
        for work in edits where stores[work.store.section] === work.store {
            work.store.newIndex = sectionOrder.rank(of: work.store.section)
        }
        for store in insertedStores {
            report.sectionChanges.append(SectionChange(type: .insert, index: store.newIndex, section: store.section))
        }

        // 4. Object changes.
        func old(_ c: Int32, _ store: SectionStore) -> IndexPath { IndexPath(row: Int(rows.old[Int(c)]), section: store.oldIndex) }
        func new(_ c: Int32, _ store: SectionStore) -> IndexPath { IndexPath(row: Int(rows.new[Int(c)]), section: store.newIndex) }
        var deletes = deleted.map { ObjectChange(type: .delete, id: merged[Int($0.change)].id, indexPath: old($0.change, $0.store), newIndexPath: nil) }
        var inserts = inserted.map { ObjectChange(type: .insert, id: merged[Int($0.change)].id, indexPath: nil, newIndexPath: new($0.change, $0.store)) }
        var moves: [ObjectChange<ID>] = []
        var updates = inPlace.map {
            ObjectChange(type: .update, id: merged[Int($0.change)].id, indexPath: old($0.change, $0.store), newIndexPath: new($0.change, $0.store))
        }
        // Each list's change indexes, kept alongside it.
        var deleteSources = deleted.map(\.change), insertSources = inserted.map(\.change)
        var moveSources: [Int32] = [], updateSources = inPlace.map(\.change)
        let relocations = relocated.map {
            Relocation(id: merged[Int($0.change)].id, oldStore: $0.from, oldPath: old($0.change, $0.from), newStore: $0.to, newPath: new($0.change, $0.to))
        }
        let staying = rowsKeepingTheirPlace(relocations, edits: editOfSlot)
        for (i, item) in relocations.enumerated() {
            let source = relocated[i].change
            if staying[i] {
                updates.append(ObjectChange(type: .update, id: item.id, indexPath: item.oldPath, newIndexPath: item.newPath))
                updateSources.append(source)
            } else if stores[item.oldStore.section] !== item.oldStore || item.newStore.isNew || item.oldPath == item.newPath {
                // UICollectionView refuses such moves and UITableView reloads; an
                // equal-path move reads as an update to many clients.
                deletes.append(ObjectChange(type: .delete, id: item.id, indexPath: item.oldPath, newIndexPath: nil))
                inserts.append(ObjectChange(type: .insert, id: item.id, indexPath: nil, newIndexPath: item.newPath))
                deleteSources.append(source)
                insertSources.append(source)
            } else {
                moves.append(ObjectChange(type: .move, id: item.id, indexPath: item.oldPath, newIndexPath: item.newPath))
                moveSources.append(source)
            }
        }

        // 5. Clear the batch scratch and order the report.
        for work in edits {
            work.store.oldIndex = -1
            work.store.newIndex = -1
            work.store.isNew = false
        }
        report.sectionChanges.sort { ($0.type == .delete ? 0 : 1, $0.index) < ($1.type == .delete ? 0 : 1, $1.index) }
        Self.sortByPath(&deletes, &deleteSources) { $0.indexPath! }
        Self.sortByPath(&inserts, &insertSources) { $0.newIndexPath! }
        Self.sortByPath(&moves, &moveSources) { $0.newIndexPath! }
        Self.sortByPath(&updates, &updateSources) { $0.indexPath! }
        report.objectChanges = deletes + inserts + moves + updates
        sources = deleteSources + insertSources + moveSources + updateSources
        return report
    }

    /// One change per object: later changes of the same object win, and it counts as changed if any says so.
    private static func oneChangePerObject(_ changes: [ResultsRowChange<ID, Key, Section>]) -> [ResultsRowChange<ID, Key, Section>] {
        var seen = Set<ID>(minimumCapacity: changes.count)
        if changes.allSatisfy({ seen.insert($0.id).inserted }) { return changes }
        var byID: [ID: ResultsRowChange<ID, Key, Section>] = [:]
        for change in changes {
            let earlier = byID[change.id]
            byID[change.id] = ResultsRowChange(id: change.id, row: change.row, objectChanged: (earlier?.objectChanged ?? false) || change.objectChanged)
        }
        return Array(byID.values)
    }

    /// Sorts changes by one of their paths: packed (section, row) keys are
    /// sorted, not the changes, whose index paths are costly to move.
    private static func sortByPath(_ changes: inout [ObjectChange<ID>], _ sources: inout [Int32], _ path: (ObjectChange<ID>) -> IndexPath) {
        guard changes.count > 1 else { return }
        var keys = changes.indices.map { i -> (key: UInt64, index: Int) in
            let p = path(changes[i])
            return (UInt64(p.section) << 32 | UInt64(p.row), i)
        }
        keys.sort { $0.key < $1.key }
        changes = keys.map { changes[$0.index] }
        sources = keys.map { sources[$0.index] }
    }
}
