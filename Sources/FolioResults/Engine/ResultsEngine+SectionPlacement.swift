extension ResultsEngine {
    /// Where a batch's arriving rows go: the section of each (made when it
    /// is new, which is why the touched sections' old indexes are taken
    /// first), and each arrival recorded as new to the results or moved
    /// from another place.
    ///
    /// ```swift
    /// var batch = engine.classify(changes)
    /// let placement = engine.place(changes, &batch)
    /// placement.insertedStores.map(\.section)   // sections the batch makes
    /// ```
    struct SectionPlacement {
        /// The sections the batch touched before it placed anything, with their indexes then.
        let oldSections: [SectionStore]
        let oldRanks: [Int]
        /// Sections the batch makes, in the order made.
        var insertedStores: [SectionStore] = []
        /// Rows new to the results: the change and its section's slot.
        var inserted: [(change: Int32, slot: Int32)] = []
        /// Rows that move: the change, and its old and new section's slots.
        var relocated: [(change: Int32, from: Int32, to: Int32)] = []
    }

    /// Each touched section's index before and after a batch, by slot (-1
    /// where it has none), and whether the batch made it or emptied it.
    struct SectionIndexes {
        var old: [Int]
        var new: [Int]
        var isNew: [Bool]
        var isGone: [Bool]

        init(slots: Int) {
            old = [Int](repeating: -1, count: slots)
            new = old
            isNew = [Bool](repeating: false, count: slots)
            isGone = isNew
        }
    }

    /// Gives each arrival of `batch` its section and adds it to that
    /// section's edit; makes the sections that do not exist yet.
    ///
    /// Placed run by run: one section lookup per run of arrivals in the same
    /// section (the controller passes them in key order, so a run is usually
    /// a whole section); a row that moves within its section needs none.
    /// - Complexity: O(a) for a arrivals, plus O(log s) per run.
    func place(_ merged: [ResultsRowChange<ID, Key, Section>], _ batch: inout BatchClassification) -> SectionPlacement {
        // Old section indexes, before any section comes.
        let oldSections = batch.edits.map(\.store)
        var placement = SectionPlacement(oldSections: oldSections, oldRanks: oldSections.map { sectionOrder.rank(of: $0.section) })
        var runStore: SectionStore?
        for arrival in batch.arrivals {
            let row = merged[Int(arrival.change)].row!
            let target: SectionStore
            if arrival.handle >= 0 {
                target = batch.editOfSlot[Int(arrival.from)]!.store
            } else {
                if runStore?.section != row.section {
                    precondition(
                        fixedSection == nil || row.section == fixedSection, "ResultsEngine: row \(row.id) is outside the fixed section")
                    if let existing = stores[row.section] {
                        runStore = existing
                    } else {
                        let created = store(for: row.section)
                        placement.insertedStores.append(created)
                        runStore = created
                    }
                }
                target = runStore!
            }
            batch.edit(target).arriving.append((Entry(key: row.key, id: row.id), arrival.change, arrival.handle))
            if arrival.from >= 0 {
                placement.relocated.append((arrival.change, arrival.from, target.slot))
            } else {
                placement.inserted.append((arrival.change, target.slot))
            }
        }
        return placement
    }

    /// After the sections' edits: the identifier map learns the arrivals'
    /// new nodes and forgets the deleted rows.
    func learnLocations(_ merged: [ResultsRowChange<ID, Key, Section>], _ batch: BatchClassification) {
        for work in batch.edits {
            for item in work.placed { locations[item.id] = Location(slot: work.store.slot, handle: item.handle) }
        }
        for item in batch.deleted { locations[merged[Int(item.change)].id] = nil }
    }

    /// After the sections' edits: drops the sections that emptied (not the
    /// fixed one), adds their deletions and the new sections' insertions to
    /// `changes`, and gives every touched section's index before and after.
    /// - Complexity: O(t log s) for t touched of s sections.
    func settleSections(
        _ batch: BatchClassification, _ placement: SectionPlacement, changes: inout [SectionChange<Section>]
    ) -> SectionIndexes {
        var indexes = SectionIndexes(slots: batch.editOfSlot.count)
        for (store, rank) in zip(placement.oldSections, placement.oldRanks) { indexes.old[Int(store.slot)] = rank }
        for store in placement.insertedStores { indexes.isNew[Int(store.slot)] = true }
        for store in placement.oldSections where store.rows.isEmpty && store.section != fixedSection {
            changes.append(SectionChange(type: .delete, index: indexes.old[Int(store.slot)], section: store.section))
            dropStore(store)
            indexes.isGone[Int(store.slot)] = true
        }
        for work in batch.edits where !indexes.isGone[Int(work.store.slot)] {
            indexes.new[Int(work.store.slot)] = sectionOrder.rank(of: work.store.section)
        }
        for store in placement.insertedStores {
            changes.append(SectionChange(type: .insert, index: indexes.new[Int(store.slot)], section: store.section))
        }
        return indexes
    }
}
