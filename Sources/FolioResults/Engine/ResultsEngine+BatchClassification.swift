extension ResultsEngine {
    /// What each change of a batch does to the sections it touches, found
    /// without editing anything: a row leaves its old section (deleted,
    /// moved out, or re-placed within it), stays where it is (changed, same
    /// key: an update), or arrives (new, or moved). Each touched old section
    /// gets one ``SectionEdit`` that collects its part.
    ///
    /// Changes are named by their index in the batch, and sections by their
    /// slot: the lists hold no references, so making and freeing them
    /// counts none.
    ///
    /// ```swift
    /// let batch = engine.classify(changes)
    /// batch.deleted.count   // rows that leave the results
    /// ```
    struct BatchClassification {
        /// The edit of each touched section, by slot (nil for an untouched one).
        private(set) var editOfSlot: [SectionEdit?]
        /// The touched sections' edits, in the order first touched.
        private(set) var edits: [SectionEdit] = []
        /// Rows that leave the results: the change and its old section's slot.
        var deleted: [(change: Int32, slot: Int32)] = []
        /// Changed rows that keep their key, so their place: reported as updates.
        var inPlace: [(change: Int32, slot: Int32)] = []
        /// Rows that arrive somewhere, read from the batch where they lie:
        /// `from` is the old section's slot (-1 for a new row), `handle` the
        /// row's node when it is re-placed within that section, else -1.
        var arrivals: [(change: Int32, from: Int32, handle: Handle)] = []

        init(slots: Int) { editOfSlot = [SectionEdit?](repeating: nil, count: slots) }

        /// The edit of `store`'s section, made on first use (a section made
        /// by the batch gets a slot past the others).
        mutating func edit(_ store: SectionStore) -> SectionEdit {
            let slot = Int(store.slot)
            if slot >= editOfSlot.count { editOfSlot.append(contentsOf: repeatElement(nil, count: slot + 1 - editOfSlot.count)) }
            if let existing = editOfSlot[slot] { return existing }
            let created = SectionEdit(store)
            editOfSlot[slot] = created
            edits.append(created)
            return created
        }
    }

    /// Classifies a batch of one change per object against the results as
    /// they are (see ``BatchClassification``); edits nothing.
    ///
    /// ```swift
    /// let batch = engine.classify([ResultsRowChange(id: 1, row: nil, objectChanged: true)])
    /// ```
    /// - Complexity: O(k) for k changes.
    func classify(_ merged: [ResultsRowChange<ID, Key, Section>]) -> BatchClassification {
        var batch = BatchClassification(slots: slots.count)
        // Each changed row's location and lead first, in loops whose misses overlap.
        let found = locations.locations(count: merged.count) { merged[$0].id }
        let leads = currentLeads(found)
        for index in merged.indices {
            let c = Int32(index)
            let location = found[index]
            guard location.slot >= 0 else {
                if merged[index].row != nil { batch.arrivals.append((c, -1, -1)) }
                continue
            }
            let store = storeOf(location)
            // The row only, read once: copying the whole change costs a copy of each of its keys.
            guard let row = merged[index].row else {
                batch.edit(store).departing.append((location.handle, c, false))
                batch.deleted.append((c, location.slot))
                continue
            }
            if store.section == row.section {
                if Self.sameKey(row.key, lead: leads[index], at: location.handle, in: store) {
                    if merged[index].objectChanged {
                        batch.edit(store).staying.append((location.handle, c))
                        batch.inPlace.append((c, location.slot))
                    }
                } else {
                    batch.edit(store).departing.append((location.handle, c, true))
                    batch.arrivals.append((c, location.slot, location.handle))
                }
            } else {
                batch.edit(store).departing.append((location.handle, c, false))
                batch.arrivals.append((c, location.slot, -1))
            }
        }
        return batch
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
}
