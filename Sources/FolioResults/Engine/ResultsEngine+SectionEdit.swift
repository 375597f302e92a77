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

    /// One section's part of a batch: the rows that leave it (deleted or
    /// moved out), change in place, or arrive (inserted or moved in).
    final class SectionEdit {
        let store: SectionStore
        var departing: [OrderStatisticTree<Entry>.Handle] = []
        var staying: [OrderStatisticTree<Entry>.Handle] = []
        var arriving: [Entry] = []
        init(_ store: SectionStore) { self.store = store }
    }

    /// Applies one section's edit and records each touched row's index
    /// before (leaving and in-place rows) and after (arriving and in-place rows).
    /// Rebuilding costs about as much as 1/16 of the rows edited in place.
    /// - Complexity: O(c log m) in place, O(m + a log a) rebuilt, for c
    ///   changed and a arriving of m rows.
    func perform(_ edit: SectionEdit, oldRows: inout [ID: Int], newRows: inout [ID: Int]) {
        let changed = edit.departing.count + edit.staying.count + edit.arriving.count
        let rebuild = switch editStrategy {
        case .automatic: changed * 16 >= edit.store.rows.count
        case .inPlace: false
        case .rebuild: true
        }
        if rebuild { self.rebuild(edit, oldRows: &oldRows, newRows: &newRows) } else { editInPlace(edit, oldRows: &oldRows, newRows: &newRows) }
    }

    private func editInPlace(_ edit: SectionEdit, oldRows: inout [ID: Int], newRows: inout [ID: Int]) {
        let store = edit.store
        for handle in edit.departing + edit.staying { oldRows[store.rows[handle].id] = store.rows.rank(ofHandle: handle) }
        for handle in edit.departing { store.rows.remove(handle) }
        let handles = edit.arriving.map { entry in
            let handle = store.rows.insert(entry)
            locations[entry.id] = Location(slot: store.slot, handle: handle)
            return handle
        }
        for handle in handles + edit.staying { newRows[store.rows[handle].id] = store.rows.rank(ofHandle: handle) }
    }

    private func rebuild(_ edit: SectionEdit, oldRows: inout [ID: Int], newRows: inout [ID: Int]) {
        let store = edit.store
        let old = store.rows
        // 1 leaves, 2 stays and changed in place, 0 stays untouched.
        var marks = [UInt8](repeating: 0, count: old.elements.count)
        for handle in edit.departing { marks[Int(handle)] = 1 }
        for handle in edit.staying { marks[Int(handle)] = 2 }
        var survivors: [(entry: Entry, changed: Bool)] = []
        survivors.reserveCapacity(old.count - edit.departing.count)
        var index = 0
        old.forEachHandleInOrder { handle in
            let entry = old[handle]
            let mark = marks[Int(handle)]
            if mark != 0 { oldRows[entry.id] = index }
            if mark != 1 { survivors.append((entry, mark == 2)) }
            index += 1
        }
        let arriving = edit.arriving.sorted()
        var merged: [Entry] = []
        merged.reserveCapacity(survivors.count + arriving.count)
        var s = 0, a = 0
        while s < survivors.count || a < arriving.count {
            if a < arriving.count && (s == survivors.count || arriving[a] < survivors[s].entry) {
                newRows[arriving[a].id] = merged.count
                merged.append(arriving[a])
                a += 1
            } else {
                if survivors[s].changed { newRows[survivors[s].entry.id] = merged.count }
                merged.append(survivors[s].entry)
                s += 1
            }
        }
        store.rows = OrderStatisticTree(sorted: merged)
        for (handle, entry) in merged.enumerated() { locations[entry.id] = Location(slot: store.slot, handle: Int32(handle)) }
    }
}
