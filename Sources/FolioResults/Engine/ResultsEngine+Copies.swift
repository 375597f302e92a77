import Dispatch

extension ResultsEngine {
    /// The rows section by section, in order, with their leads: what
    /// ``load(sorted:)`` takes back.
    ///
    /// ```swift
    /// let rows = engine.sortedSections()
    /// ```
    /// - Complexity: O(n).
    func sortedSections() -> [(section: Section, entries: ContiguousArray<Entry>, leads: ContiguousArray<UInt64>)] {
        sectionOrder.sortedElements().map { section in
            let (entries, leads) = stores[section]!.rows.inOrder()
            return (section, entries, leads)
        }
    }

    /// Replaces the contents with sections already in order, each with its
    /// rows in order and their leads (as another engine holds them), so that
    /// nothing is sorted or compared. Pass `ids` when every integer ID is
    /// known to lie within it (a search's rows), so that none is looked at twice.
    ///
    /// ```swift
    /// engine.load(sorted: [(section, entries, leads)])
    /// ```
    /// - Complexity: O(n).
    func load(
        sorted sections: [(section: Section, entries: ContiguousArray<Entry>, leads: ContiguousArray<UInt64>)], ids: ClosedRange<Int>? = nil
    ) {
        reset()
        var installs: [Install] = []
        var rows = 0, lowest = ids?.lowerBound ?? Int.max, highest = ids?.upperBound ?? -1
        for (section, entries, leads) in sections {
            precondition(fixedSection == nil || section == fixedSection, "ResultsEngine: a section other than the fixed one")
            guard !entries.isEmpty || section == fixedSection else { continue }
            installs.append(Install(store: store(for: section), entries: entries, leads: leads))
            rows += entries.count
            // Sections are in key order, not by ID: every ID is looked at, unless the caller knows their range.
            if LocationMap<ID>.isInteger && ids == nil {
                for entry in entries {
                    let id = LocationMap<ID>.integer(entry.id)!
                    lowest = min(lowest, id)
                    highest = max(highest, id)
                }
            }
        }
        // As reserveLocations(for:) reserves.
        locations.reserve(rows + rows / 8 + 16, integersBelow: highest + 1)
        // Only many rows are worth other threads, which a busy machine may keep waiting.
        let lanes = Lanes.count(for: rows / 32)
        if lanes > 1, lowest <= highest, locations.denseCovers(lowest...highest) {
            installInParallel(installs, rows: rows)
        } else {
            for install in installs { self.install(install.store, sorted: install.entries, leads: install.leads, growing: false) }
        }
    }

    /// A section's store and the rows to give it, in order with their leads.
    struct Install {
        let store: SectionStore
        let entries: ContiguousArray<Entry>
        let leads: ContiguousArray<UInt64>
    }

    /// Gives `section` a tree of `entries`, in order with their leads (the
    /// tree keeps the array), and places its rows in the location map.
    /// - Complexity: O(m) for the section's m rows.
    func install(_ section: Section, sorted entries: ContiguousArray<Entry>, leads: ContiguousArray<UInt64>) {
        install(store(for: section), sorted: entries, leads: leads, growing: true)
    }

    /// `growing: false` for a load that reserved the map for every row:
    /// the rows the array does not cover go to the dictionary, not into an
    /// array grown step by step towards the largest ID.
    private func install(_ store: SectionStore, sorted entries: ContiguousArray<Entry>, leads: ContiguousArray<UInt64>, growing: Bool) {
        store.rows = OrderStatisticTree(sorted: entries, leads: leads)
        let fresh = entries.withUnsafeBufferPointer { entries in
            locations.placeNew(slot: store.slot, count: entries.count, growing: growing) { entries[$0].id }
        }
        precondition(fresh, "ResultsEngine: an id loaded twice")
    }

    /// Empties the engine, its rows let go on another thread: freeing a
    /// million rows takes milliseconds that the caller need not wait for.
    ///
    /// ```swift
    /// engine.emptyApart()
    /// engine.adopt(rebuilt)
    /// ```
    /// - Complexity: O(1) here.
    func emptyApart() {
        let old = ResultsEngine(fixedSection: fixedSection)
        old.adopt(self)
        let apart = Apart(engine: old)
        FreedMemory.apart.async { apart.drop() }
    }

    /// An engine handed to another thread to be freed there.
    private struct Apart: @unchecked Sendable {  // the only reference to an engine nothing else reads
        let engine: ResultsEngine
        func drop() { withExtendedLifetime(engine) {} }
    }
}
