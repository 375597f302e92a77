extension ResultsEngine {
    /// How ``apply(_:)`` changes a section's rows.
    package enum EditStrategy: Sendable {
        /// In place when few rows change, rebuilt when many do (the default).
        case automatic
        /// Always tree edits: O(log m) per changed row.
        case inPlace
        /// Always one ordered pass: O(m) for the section.
        case rebuild
    }

    typealias Handle = OrderStatisticTree<Entry>.Handle

    /// One section's part of a batch: the rows that leave it (deleted or
    /// moved out), change in place, or arrive (inserted or moved in), each
    /// with the index of its change in the batch.
    final class SectionEdit {
        let store: SectionStore
        /// `moving`: the row arrives again in this section, in the same node.
        var departing: [(handle: Handle, change: Int32, moving: Bool)] = []
        var staying: [(handle: Handle, change: Int32)] = []
        /// `handle` is the row's node when it moves within this section, else -1.
        var arriving: [(entry: Entry, change: Int32, handle: Handle)] = []
        /// The old rows of the departures and the new rows of the arrivals, ascending.
        var leavingRows: [Int] = []
        var comingRows: [Int] = []
        /// The arrivals that got a new node, for the identifier map, which
        /// learns them after every section is done (sections may be edited at once).
        var placed: [(id: ID, handle: Handle)] = []
        /// How many of the section's rows the batch changes.
        var changed: Int { departing.count + staying.count + arriving.count }
        /// About how much work the edit is, to share sections among threads.
        var weight: Int { min(changed, store.rows.count / 16) + 1 }
        init(_ store: SectionStore) { self.store = store }

        /// Sorts the arrivals by entry: their leads and indexes are sorted, not
        /// the arrivals, so that most comparisons are of two integers in a
        /// small record, and each arrival moves once.
        func sortArrivals() {
            guard arriving.count > 1 else { return }
            let items = arriving
            var order = items.indices.map { (lead: ResultsEngine.lead(of: items[$0].entry.key), index: Int32($0)) }
            order.sort { a, b in
                if a.lead != b.lead && (a.lead | b.lead) & OrderStatisticTree<Entry>.noLead == 0 { return a.lead < b.lead }
                return ResultsEngine.precedes(items[Int(a.index)].entry, items[Int(b.index)].entry)
            }
            arriving = order.map { items[Int($0.index)] }
        }
    }

    /// A key's lead for the row trees: a ``RowKey``'s own (the controller's
    /// keys), else one that decides nothing. The cast folds away once specialised.
    @inline(__always) static func lead(of key: Key) -> UInt64 {
        (key as? RowKey)?.lead ?? OrderStatisticTree<Entry>.noLead
    }

    /// `a < b`, deciding by the keys' leads when they can.
    @inline(__always) static func precedes(_ a: Entry, _ b: Entry) -> Bool {
        let x = lead(of: a.key), y = lead(of: b.key)
        if x != y && (x | y) & OrderStatisticTree<Entry>.noLead == 0 { return x < y }
        return a < b
    }

    /// Applies one section's edit and records each touched row's index
    /// before (leaving and in-place rows) and after (arriving and in-place rows).
    /// Rebuilding costs about as much as 1/16 of the rows edited in place.
    /// Rows that stay in the section keep their nodes, so only the rows
    /// that arrive from elsewhere get a new place in the identifier map.
    /// - Complexity: O(c log m) in place, O(m + c) rebuilt, for c changed of m rows.
    func perform(_ edit: SectionEdit, rows: UnsafeBatchRows) {
        let rebuild =
            switch editStrategy {
            case .automatic: edit.changed * 16 >= edit.store.rows.count
            case .inPlace: false
            case .rebuild: true
            }
        if rebuild { self.rebuild(edit, rows: rows) } else { editInPlace(edit, rows: rows) }
        edit.comingRows = edit.arriving.map { Int(rows.new[Int($0.change)]) }
        edit.comingRows.sort()
    }

    private func editInPlace(_ edit: SectionEdit, rows: UnsafeBatchRows) {
        let store = edit.store
        // The tree is edited out of its store: a class's stored property would be
        // checked for exclusive access at every edit; the store gets it back at the end.
        var tree = store.rows
        store.rows = OrderStatisticTree()
        defer { store.rows = tree }
        for item in edit.staying { rows.old[Int(item.change)] = Int32(tree.rank(ofHandle: item.handle)) }
        // Departures from the last down: each detach counts its rank on its way
        // up, and taking out larger rows first leaves the smaller ones' ranks as they were.
        // Sorted by the nodes' leads, read once each, so that most comparisons touch no node.
        if edit.departing.count > 1 {
            var byLead = edit.departing.map { (lead: tree.lead(of: $0.handle), item: $0) }
            byLead.sort { a, b in
                if a.lead != b.lead && (a.lead | b.lead) & OrderStatisticTree<Entry>.noLead == 0 { return a.lead > b.lead }
                return tree.isOrdered(b.item.handle, before: a.item.handle)
            }
            edit.departing = byLead.map(\.item)
        }
        var leaving: [Int] = []
        leaving.reserveCapacity(edit.departing.count)
        // Every departure's place first, in one loop whose misses overlap.
        let places = tree.places(of: edit.departing.map(\.handle))
        for (item, place) in zip(edit.departing, places) {
            let rank = tree.detachRanked(item.handle, at: place)
            rows.old[Int(item.change)] = Int32(rank)
            leaving.append(rank)
            // Rows moving within the section keep their node; the others' go.
            if !item.moving { tree.release(item.handle) }
        }
        edit.leavingRows = leaving.reversed()
        // Arrivals from the first up: each insert counts its rank on its way
        // down, and what comes later is larger, so the ranks are final.
        edit.sortArrivals()
        for item in edit.arriving {
            let rank: Int
            if item.handle >= 0 {
                rank = tree.reattachRanked(item.handle, as: item.entry, lead: Self.lead(of: item.entry.key))
            } else {
                let placed = tree.insertRanked(item.entry, lead: Self.lead(of: item.entry.key))
                edit.placed.append((item.entry.id, placed.handle))
                rank = placed.rank
            }
            rows.new[Int(item.change)] = Int32(rank)
        }
        for item in edit.staying { rows.new[Int(item.change)] = Int32(tree.rank(ofHandle: item.handle)) }
    }

    /// Each arrival's node: its own when it moves within the section, else a
    /// new one, which the identifier map learns.
    private func nodes(for edit: SectionEdit, reuse: (Handle, Entry) -> Void, make: (Entry) -> Handle) -> [Handle] {
        edit.arriving.map { item in
            if item.handle >= 0 {
                reuse(item.handle, item.entry)
                return item.handle
            }
            let handle = make(item.entry)
            edit.placed.append((item.entry.id, handle))
            return handle
        }
    }

    private func rebuild(_ edit: SectionEdit, rows: UnsafeBatchRows) {
        let store = edit.store
        edit.sortArrivals()  // O(a) when they came in order
        // Per node: -1 untouched, else the change's index, doubled, plus 1 when it leaves.
        var marks = [Int32](repeating: -1, count: store.rows.capacity)
        for item in edit.departing { marks[Int(item.handle)] = item.change << 1 | 1 }
        for item in edit.staying { marks[Int(item.handle)] = item.change << 1 }
        var survivors: [Handle] = []
        survivors.reserveCapacity(store.rows.count - edit.departing.count)
        var leaving: [Int] = []
        leaving.reserveCapacity(edit.departing.count)
        var index = 0
        store.rows.forEachHandleInOrder { handle in
            let mark = marks[Int(handle)]
            if mark >= 0 { rows.old[Int(mark >> 1)] = Int32(index) }
            if mark >= 0 && mark & 1 == 1 { leaving.append(index) } else { survivors.append(handle) }
            index += 1
        }
        edit.leavingRows = leaving
        for item in edit.departing where !item.moving { store.rows.release(item.handle) }
        let arriving = nodes(
            for: edit, reuse: { store.rows.replace($0, with: $1, lead: Self.lead(of: $1.key)) },
            make: { store.rows.allocate($0, lead: Self.lead(of: $0.key)) })
        // Merge the survivors (in order) with the arrivals (sorted).
        var order: [Handle] = []
        order.reserveCapacity(survivors.count + arriving.count)
        var s = 0, a = 0
        while s < survivors.count || a < arriving.count {
            if a < arriving.count && (s == survivors.count || store.rows.isOrdered(arriving[a], before: survivors[s])) {
                rows.new[Int(edit.arriving[a].change)] = Int32(order.count)
                order.append(arriving[a])
                a += 1
            } else {
                let mark = marks[Int(survivors[s])]
                if mark >= 0 { rows.new[Int(mark >> 1)] = Int32(order.count) }
                order.append(survivors[s])
                s += 1
            }
        }
        store.rows.relink(order)
    }
}
