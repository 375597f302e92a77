extension ResultsEngine {
    /// A changed row that stays in the results under new keys.
    struct Relocation {
        var id: ID
        var oldStore: SectionStore
        var oldPath: IndexPath
        var newStore: SectionStore
        var newEntry: Entry
        var newSection: Section
        var newPath = IndexPath(row: -1, section: -1)
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
    /// ```swift
    /// let report = engine.apply([ResultsRowChange(id: 4, row: ResultsRow(id: 4, key: "Zebu", section: "Z"), objectChanged: true)])
    /// ```
    /// - Complexity: O(k log n) for k changes against n rows.
    package func apply<S: Sequence>(_ changes: S) -> ResultsChangeSet<ID, Section> where S.Element == ResultsRowChange<ID, Key, Section> {
        var merged: [ID: ResultsRowChange<ID, Key, Section>] = [:]
        for change in changes {
            if let earlier = merged[change.id] {
                merged[change.id] = ResultsRowChange(id: change.id, row: change.row, objectChanged: earlier.objectChanged || change.objectChanged)
            } else {
                merged[change.id] = change
            }
        }
        var touched: [SectionStore] = []
        func oldIndex(_ store: SectionStore) -> Int {
            if store.oldIndex < 0 {
                store.oldIndex = sectionOrder.rank(of: store.section)
                touched.append(store)
            }
            return store.oldIndex
        }
        func oldPath(_ location: Location) -> IndexPath {
            IndexPath(row: storeOf(location).rows.rank(of: storeOf(location).rows[location.handle]), section: oldIndex(storeOf(location)))
        }

        // 1. Classify, and locate everything in the old results.
        var deleted: [(id: ID, path: IndexPath, store: SectionStore)] = []
        var inserted: [ResultsRow<ID, Key, Section>] = []
        var relocated: [Relocation] = []
        var inPlace: [(id: ID, path: IndexPath, location: Location)] = []
        for change in merged.values {
            let location = locations[change.id]
            switch (location, change.row) {
            case (nil, nil):
                continue
            case let (nil, row?):
                precondition(fixedSection == nil || row.section == fixedSection, "ResultsEngine: row \(row.id) is outside the fixed section")
                inserted.append(row)
            case let (location?, nil):
                deleted.append((change.id, oldPath(location), storeOf(location)))
            case let (location?, row?):
                precondition(fixedSection == nil || row.section == fixedSection, "ResultsEngine: row \(row.id) is outside the fixed section")
                let oldKey = storeOf(location).rows[location.handle].key
                if oldKey == row.key && storeOf(location).section == row.section {
                    if change.objectChanged { inPlace.append((change.id, oldPath(location), location)) }
                } else {
                    relocated.append(Relocation(id: change.id, oldStore: storeOf(location), oldPath: oldPath(location),
                                                newStore: storeOf(location), newEntry: Entry(key: row.key, id: row.id), newSection: row.section))
                }
            }
        }

        // 2. Take out what left or moved; 3. put in what arrived or moved.
        for item in deleted {
            let location = locations.removeValue(forKey: item.id)!
            storeOf(location).rows.remove(location.handle)
        }
        for item in relocated {
            let location = locations[item.id]!
            storeOf(location).rows.remove(location.handle)
        }
        var insertedStores: [SectionStore] = []
        func place(_ entry: Entry, in section: Section) -> SectionStore {
            var store = stores[section]
            if store == nil {
                store = self.store(for: section)
                store!.isNew = true
                insertedStores.append(store!)
            }
            let handle = store!.rows.insert(entry)
            locations[entry.id] = Location(slot: store!.slot, handle: handle)
            return store!
        }
        for row in inserted { _ = place(Entry(key: row.key, id: row.id), in: row.section) }
        for i in relocated.indices {
            relocated[i].newStore = place(relocated[i].newEntry, in: relocated[i].newSection)
        }

        // 4. Sections that emptied go; their old indexes were taken in step 1.
        var report = ResultsChangeSet<ID, Section>()
        for store in touched where store.rows.isEmpty && store.section != fixedSection {
            report.sectionChanges.append(SectionChange(type: .delete, index: store.oldIndex, section: store.section))
            dropStore(store)
        }
        func newIndex(_ store: SectionStore) -> Int {
            if store.newIndex < 0 {
                store.newIndex = sectionOrder.rank(of: store.section)
                if store.oldIndex < 0 { touched.append(store) }
            }
            return store.newIndex
        }
        for store in insertedStores {
            report.sectionChanges.append(SectionChange(type: .insert, index: newIndex(store), section: store.section))
        }
        func newPath(of entry: Entry, in store: SectionStore) -> IndexPath {
            IndexPath(row: store.rows.rank(of: entry), section: newIndex(store))
        }

        // 5. Object changes.
        var deletes = deleted.map { ObjectChange(type: .delete, id: $0.id, indexPath: $0.path, newIndexPath: nil) }
        var arrivals: [(store: SectionStore, row: Int)] = []
        var inserts = inserted.map { row in
            let store = stores[row.section]!
            let path = newPath(of: Entry(key: row.key, id: row.id), in: store)
            arrivals.append((store, path.row))
            return ObjectChange(type: .insert, id: row.id, indexPath: nil, newIndexPath: path)
        }
        var moves: [ObjectChange<ID>] = []
        var updates = inPlace.map { item in
            ObjectChange(type: .update, id: item.id, indexPath: item.path, newIndexPath: newPath(of: storeOf(item.location).rows[item.location.handle], in: storeOf(item.location)))
        }
        for i in relocated.indices {
            relocated[i].newPath = newPath(of: relocated[i].newEntry, in: relocated[i].newStore)
        }
        let staying = rowsKeepingTheirPlace(relocated, departures: deleted.map { ($0.store, $0.path.row) }, arrivals: arrivals)
        for (i, item) in relocated.enumerated() {
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

        // 6. Clear the batch scratch and order the report.
        for store in touched {
            store.oldIndex = -1
            store.newIndex = -1
            store.isNew = false
        }
        for store in insertedStores {
            store.isNew = false
            store.newIndex = -1
        }
        report.sectionChanges.sort { ($0.type == .delete ? 0 : 1, $0.index) < ($1.type == .delete ? 0 : 1, $1.index) }
        deletes.sort { $0.indexPath! < $1.indexPath! }
        inserts.sort { $0.newIndexPath! < $1.newIndexPath! }
        moves.sort { $0.newIndexPath! < $1.newIndexPath! }
        updates.sort { $0.indexPath! < $1.indexPath! }
        report.objectChanges = deletes + inserts + moves + updates
        return report
    }
}
