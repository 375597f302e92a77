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
    /// Each section is edited in place when few of its rows change, and
    /// rebuilt in one ordered pass when many do (see ``SectionEdit``), so a
    /// batch that empties or fills most of a section costs O(m) for its m
    /// rows rather than O(m log m) tree edits.
    ///
    /// ```swift
    /// let report = engine.apply([ResultsRowChange(id: 4, row: ResultsRow(id: 4, key: "Zebu", section: "Z"), objectChanged: true)])
    /// ```
    /// - Complexity: O(k log n) for k changes against n rows, and at most
    ///   O(m + k log k) for a section of m rows that k of them change.
    package func apply<S: Sequence>(_ changes: S) -> ResultsChangeSet<ID, Section> where S.Element == ResultsRowChange<ID, Key, Section> {
        // One change per object: later changes of the same object win, and it counts as changed if any says so.
        var merged = Array(changes)
        var seen = Set<ID>(minimumCapacity: merged.count)
        if !merged.allSatisfy({ seen.insert($0.id).inserted }) {
            var byID: [ID: ResultsRowChange<ID, Key, Section>] = [:]
            for change in merged {
                let earlier = byID[change.id]
                byID[change.id] = ResultsRowChange(id: change.id, row: change.row, objectChanged: (earlier?.objectChanged ?? false) || change.objectChanged)
            }
            merged = Array(byID.values)
        }
        // 1. Classify: what leaves each old section and what arrives where.
        var edits: [ObjectIdentifier: SectionEdit] = [:]
        func edit(_ store: SectionStore) -> SectionEdit {
            if let existing = edits[ObjectIdentifier(store)] { return existing }
            let created = SectionEdit(store)
            edits[ObjectIdentifier(store)] = created
            return created
        }
        var deleted: [(id: ID, store: SectionStore)] = []
        var inPlace: [(id: ID, store: SectionStore)] = []
        var arrivals: [(row: ResultsRow<ID, Key, Section>, from: SectionStore?)] = []
        for change in merged {
            let location = locations[change.id]
            switch (location, change.row) {
            case (nil, nil):
                continue
            case let (nil, row?):
                arrivals.append((row, nil))
            case let (location?, nil):
                let store = storeOf(location)
                edit(store).departing.append(location.handle)
                deleted.append((change.id, store))
            case let (location?, row?):
                let store = storeOf(location)
                if store.rows[location.handle].key == row.key && store.section == row.section {
                    if change.objectChanged {
                        edit(store).staying.append(location.handle)
                        inPlace.append((change.id, store))
                    }
                } else {
                    edit(store).departing.append(location.handle)
                    arrivals.append((row, store))
                }
            }
        }
        // Old section indexes, before any section comes.
        let oldSections = edits.values.map(\.store)
        for store in oldSections { store.oldIndex = sectionOrder.rank(of: store.section) }
        var insertedStores: [SectionStore] = []
        var inserted: [(id: ID, store: SectionStore)] = []
        var relocated: [(id: ID, from: SectionStore, to: SectionStore)] = []
        for (row, from) in arrivals {
            precondition(fixedSection == nil || row.section == fixedSection, "ResultsEngine: row \(row.id) is outside the fixed section")
            var store = stores[row.section]
            if store == nil {
                store = self.store(for: row.section)
                store!.isNew = true
                insertedStores.append(store!)
            }
            edit(store!).arriving.append(Entry(key: row.key, id: row.id))
            if let from { relocated.append((row.id, from, store!)) } else { inserted.append((row.id, store!)) }
        }

        // 2. Take out what left or moved and put in what arrived, section by section.
        var oldRow: [ID: Int] = [:], newRow: [ID: Int] = [:]
        oldRow.reserveCapacity(deleted.count + relocated.count + inPlace.count)
        newRow.reserveCapacity(inserted.count + relocated.count + inPlace.count)
        for work in edits.values { perform(work, oldRows: &oldRow, newRows: &newRow) }
        for item in deleted { locations[item.id] = nil }

        // 3. Sections that emptied go; new ones arrive; then the new indexes.
        var report = ResultsChangeSet<ID, Section>()
        for store in oldSections where store.rows.isEmpty && store.section != fixedSection {
            report.sectionChanges.append(SectionChange(type: .delete, index: store.oldIndex, section: store.section))
            dropStore(store)
        }
        for work in edits.values where stores[work.store.section] === work.store {
            work.store.newIndex = sectionOrder.rank(of: work.store.section)
        }
        for store in insertedStores {
            report.sectionChanges.append(SectionChange(type: .insert, index: store.newIndex, section: store.section))
        }

        // 4. Object changes.
        func old(_ id: ID, _ store: SectionStore) -> IndexPath { IndexPath(row: oldRow[id]!, section: store.oldIndex) }
        func new(_ id: ID, _ store: SectionStore) -> IndexPath { IndexPath(row: newRow[id]!, section: store.newIndex) }
        var deletes = deleted.map { ObjectChange(type: .delete, id: $0.id, indexPath: old($0.id, $0.store), newIndexPath: nil) }
        var inserts = inserted.map { ObjectChange(type: .insert, id: $0.id, indexPath: nil, newIndexPath: new($0.id, $0.store)) }
        var moves: [ObjectChange<ID>] = []
        var updates = inPlace.map { ObjectChange(type: .update, id: $0.id, indexPath: old($0.id, $0.store), newIndexPath: new($0.id, $0.store)) }
        let relocations = relocated.map {
            Relocation(id: $0.id, oldStore: $0.from, oldPath: old($0.id, $0.from), newStore: $0.to, newPath: new($0.id, $0.to))
        }
        let staying = rowsKeepingTheirPlace(relocations, departures: deleted.map { ($0.store, oldRow[$0.id]!) },
                                            arrivals: inserted.map { ($0.store, newRow[$0.id]!) })
        for (i, item) in relocations.enumerated() {
            if staying.contains(i) {
                updates.append(ObjectChange(type: .update, id: item.id, indexPath: item.oldPath, newIndexPath: item.newPath))
            } else if stores[item.oldStore.section] !== item.oldStore || item.newStore.isNew || item.oldPath == item.newPath {
                // UICollectionView refuses such moves and UITableView reloads; an
                // equal-path move reads as an update to many clients.
                deletes.append(ObjectChange(type: .delete, id: item.id, indexPath: item.oldPath, newIndexPath: nil))
                inserts.append(ObjectChange(type: .insert, id: item.id, indexPath: nil, newIndexPath: item.newPath))
            } else {
                moves.append(ObjectChange(type: .move, id: item.id, indexPath: item.oldPath, newIndexPath: item.newPath))
            }
        }

        // 5. Clear the batch scratch and order the report.
        for work in edits.values {
            work.store.oldIndex = -1
            work.store.newIndex = -1
            work.store.isNew = false
        }
        report.sectionChanges.sort { ($0.type == .delete ? 0 : 1, $0.index) < ($1.type == .delete ? 0 : 1, $1.index) }
        Self.sortByPath(&deletes, \.indexPath)
        Self.sortByPath(&inserts, \.newIndexPath)
        Self.sortByPath(&moves, \.newIndexPath)
        Self.sortByPath(&updates, \.indexPath)
        report.objectChanges = deletes + inserts + moves + updates
        return report
    }

    /// Sorts changes by one of their paths: packed (section, row) keys are
    /// sorted, not the changes, whose index paths are costly to move.
    private static func sortByPath(_ changes: inout [ObjectChange<ID>], _ path: KeyPath<ObjectChange<ID>, IndexPath?>) {
        guard changes.count > 1 else { return }
        var keys = changes.indices.map { i -> (key: UInt64, index: Int) in
            let p = changes[i][keyPath: path]!
            return (UInt64(p.section) << 32 | UInt64(p.row), i)
        }
        keys.sort { $0.key < $1.key }
        changes = keys.map { changes[$0.index] }
    }
}
