extension ResultsEngine {
    /// A changed row that stays in the results under new keys: its change's
    /// index, and its section and row before and after.
    struct Relocation {
        var change: Int32
        var oldSlot: Int32
        var oldRow: Int
        var newSlot: Int32
        var newRow: Int
    }

    /// One object change of a report before its index paths are made: its
    /// change's index and its paths packed as section << 32 | row, so that
    /// sorting moves 24 bytes a change and compares one integer.
    struct Reported {
        var change: Int32
        var old: UInt64
        var new: UInt64
    }

    @inline(__always) static func pack(_ section: Int, _ row: Int32) -> UInt64 { UInt64(section) << 32 | UInt64(UInt32(bitPattern: row)) }
    @inline(__always) static func unpack(_ path: UInt64) -> IndexPath { IndexPath(row: Int(path & 0xFFFF_FFFF), section: Int(path >> 32)) }

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
        // Per change, the slots of its sections, not the sections: the lists hold
        // no references, so making and freeing them counts none.
        var deleted: [(change: Int32, slot: Int32)] = []
        var inPlace: [(change: Int32, slot: Int32)] = []
        // Arrivals by change index: rows are read where they lie, not copied.
        // `from` is the old section's slot (-1 for none); `handle` the row's node when it moves within it.
        var arrivals: [(change: Int32, from: Int32, handle: Handle)] = []
        // Each changed row's location and lead first, in loops whose misses overlap.
        let found = locations.locations(count: merged.count) { merged[$0].id }
        let leads = currentLeads(found)
        for index in merged.indices {
            let c = Int32(index)
            let location = found[index]
            guard location.slot >= 0 else {
                if merged[index].row != nil { arrivals.append((c, -1, -1)) }
                continue
            }
            let store = storeOf(location)
            // The row only, read once: copying the whole change costs a copy of each of its keys.
            guard let row = merged[index].row else {
                edit(store).departing.append((location.handle, c, false))
                deleted.append((c, location.slot))
                continue
            }
            if store.section == row.section {
                if Self.sameKey(row.key, lead: leads[index], at: location.handle, in: store) {
                    if merged[index].objectChanged {
                        edit(store).staying.append((location.handle, c))
                        inPlace.append((c, location.slot))
                    }
                } else {
                    edit(store).departing.append((location.handle, c, true))
                    arrivals.append((c, location.slot, location.handle))
                }
            } else {
                edit(store).departing.append((location.handle, c, false))
                arrivals.append((c, location.slot, -1))
            }
        }
        // Old section indexes, before any section comes.
        let oldSections = edits.map(\.store)
        let oldRanks = oldSections.map { sectionOrder.rank(of: $0.section) }
        // Placed run by run: one section lookup per run of arrivals in the same section
        // (the controller passes them in key order, so a run is usually a whole section);
        // a row that moves within its section needs none.
        var insertedStores: [SectionStore] = []
        var inserted: [(change: Int32, slot: Int32)] = []
        var relocated: [(change: Int32, from: Int32, to: Int32)] = []
        var runStore: SectionStore?
        for arrival in arrivals {
            let row = merged[Int(arrival.change)].row!
            let target: SectionStore
            if arrival.handle >= 0 {
                target = editOfSlot[Int(arrival.from)]!.store
            } else {
                if runStore?.section != row.section {
                    precondition(
                        fixedSection == nil || row.section == fixedSection, "ResultsEngine: row \(row.id) is outside the fixed section")
                    if let existing = stores[row.section] {
                        runStore = existing
                    } else {
                        let created = store(for: row.section)
                        insertedStores.append(created)
                        runStore = created
                    }
                }
                target = runStore!
            }
            edit(target).arriving.append((Entry(key: row.key, id: row.id), arrival.change, arrival.handle))
            if arrival.from >= 0 {
                relocated.append((arrival.change, arrival.from, target.slot))
            } else {
                inserted.append((arrival.change, target.slot))
            }
        }

        // The batch's scratch for each touched section, by slot: its indexes
        // before and after, and whether it is new or gone.
        var oldIndex = [Int](repeating: -1, count: editOfSlot.count), newIndex = oldIndex
        var isNew = [Bool](repeating: false, count: editOfSlot.count), isGone = isNew
        for (store, rank) in zip(oldSections, oldRanks) { oldIndex[Int(store.slot)] = rank }
        for store in insertedStores { isNew[Int(store.slot)] = true }

        // 2. Take out what left or moved and put in what arrived, section by
        // section (a big batch's sections on several threads); then the
        // identifier map learns the new nodes.
        let rows = UnsafeBatchRows(count: merged.count)
        defer { rows.deallocate() }
        perform(edits, rows: rows, changes: merged.count)
        for work in edits {
            for item in work.placed { locations[item.id] = Location(slot: work.store.slot, handle: item.handle) }
        }
        for item in deleted { locations[merged[Int(item.change)].id] = nil }

        // 3. Sections that emptied go; new ones arrive; then the new indexes.
        var report = ResultsChangeSet<ID, Section>()
        for store in oldSections where store.rows.isEmpty && store.section != fixedSection {
            report.sectionChanges.append(SectionChange(type: .delete, index: oldIndex[Int(store.slot)], section: store.section))
            dropStore(store)
            isGone[Int(store.slot)] = true
        }
        for work in edits where !isGone[Int(work.store.slot)] {
            newIndex[Int(work.store.slot)] = sectionOrder.rank(of: work.store.section)
        }
        for store in insertedStores {
            report.sectionChanges.append(SectionChange(type: .insert, index: newIndex[Int(store.slot)], section: store.section))
        }

        // 4. Object changes, as records of packed paths, sorted before any index path is made.
        var deletes = deleted.map { Reported(change: $0.change, old: Self.pack(oldIndex[Int($0.slot)], rows.old[Int($0.change)]), new: 0) }
        var inserts = inserted.map { Reported(change: $0.change, old: 0, new: Self.pack(newIndex[Int($0.slot)], rows.new[Int($0.change)])) }
        var moves: [Reported] = []
        var updates = inPlace.map {
            Reported(
                change: $0.change, old: Self.pack(oldIndex[Int($0.slot)], rows.old[Int($0.change)]),
                new: Self.pack(newIndex[Int($0.slot)], rows.new[Int($0.change)]))
        }
        let relocations = relocated.map {
            Relocation(
                change: $0.change, oldSlot: $0.from, oldRow: Int(rows.old[Int($0.change)]), newSlot: $0.to,
                newRow: Int(rows.new[Int($0.change)]))
        }
        let staying = rowsKeepingTheirPlace(relocations, edits: editOfSlot, isNew: isNew)
        for (i, item) in relocations.enumerated() {
            let record = Reported(
                change: item.change, old: Self.pack(oldIndex[Int(item.oldSlot)], Int32(item.oldRow)),
                new: Self.pack(newIndex[Int(item.newSlot)], Int32(item.newRow)))
            if staying[i] {
                updates.append(record)
            } else if isGone[Int(item.oldSlot)] || isNew[Int(item.newSlot)] || record.old == record.new {
                // UICollectionView refuses such moves and UITableView reloads; an
                // equal-path move reads as an update to many clients.
                deletes.append(record)
                inserts.append(record)
            } else {
                moves.append(record)
            }
        }

        // 5. Order the report.
        report.sectionChanges.sort { ($0.type == .delete ? 0 : 1, $0.index) < ($1.type == .delete ? 0 : 1, $1.index) }
        // Paths are distinct within each list, so a radix sort gives the comparison sort's order.
        radixSort(&deletes) { $0.old }
        radixSort(&inserts) { $0.new }
        radixSort(&moves) { $0.new }
        radixSort(&updates) { $0.old }
        let total = deletes.count + inserts.count + moves.count + updates.count
        report.objectChanges.reserveCapacity(total)
        sources = []
        sources.reserveCapacity(total)
        // The IDs side by side, so that the records, in report order, read them from a small array.
        let ids = merged.map(\.id)
        func emit(_ records: [Reported], _ type: ResultsChangeType, old: Bool, new: Bool) {
            for r in records {
                report.objectChanges.append(
                    ObjectChange(
                        type: type, id: ids[Int(r.change)],
                        indexPath: old ? Self.unpack(r.old) : nil, newIndexPath: new ? Self.unpack(r.new) : nil))
                sources.append(r.change)
            }
        }
        emit(deletes, .delete, old: true, new: false)
        emit(inserts, .insert, old: false, new: true)
        emit(moves, .move, old: true, new: true)
        emit(updates, .update, old: true, new: true)
        return report
    }

    /// Whether the row behind `handle`, whose lead is `y`, has `key`. Unequal
    /// leads say no without reading the row.
    @inline(__always) private static func sameKey(_ key: Key, lead y: UInt64, at handle: Handle, in store: SectionStore) -> Bool {
        let x = lead(of: key)
        if x != y && (x | y) & OrderStatisticTree<Entry>.noLead == 0 { return false }
        return store.rows[handle].key == key
    }

    /// The lead of each located row, section by section: one tight loop of
    /// independent loads a section, so that their cache misses overlap.
    private func currentLeads(_ found: [Location]) -> [UInt64] {
        var first = [Int32](repeating: -1, count: slots.count), next = [Int32](repeating: -1, count: found.count)
        for i in found.indices.reversed() where found[i].slot >= 0 {
            next[i] = first[Int(found[i].slot)]
            first[Int(found[i].slot)] = Int32(i)
        }
        var leads = [UInt64](repeating: OrderStatisticTree<Entry>.noLead, count: found.count)
        leads.withUnsafeMutableBufferPointer { leads in
            for (slot, head) in first.enumerated() where head >= 0 {
                slots[slot]!.rows.withLeads { rowLeads in
                    var i = Int(head)
                    while i >= 0 {
                        leads[i] = rowLeads[Int(found[i].handle)]
                        i = Int(next[i])
                    }
                }
            }
        }
        return leads
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
