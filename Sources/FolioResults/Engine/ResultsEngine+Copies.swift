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
    /// nothing is sorted or compared.
    ///
    /// ```swift
    /// engine.load(sorted: [(section, entries, leads)])
    /// ```
    /// - Complexity: O(n).
    func load(sorted sections: [(section: Section, entries: ContiguousArray<Entry>, leads: ContiguousArray<UInt64>)]) {
        reset()
        reserveLocations(for: sections.lazy.map(\.entries))
        for (section, entries, leads) in sections {
            precondition(fixedSection == nil || section == fixedSection, "ResultsEngine: a section other than the fixed one")
            guard !entries.isEmpty || section == fixedSection else { continue }
            install(section, sorted: entries, leads: leads)
        }
    }

    /// Gives `section` a tree of `entries`, in order with their leads (the
    /// tree keeps the array), and places its rows in the location map.
    /// - Complexity: O(m) for the section's m rows.
    func install(_ section: Section, sorted entries: ContiguousArray<Entry>, leads: ContiguousArray<UInt64>) {
        let store = store(for: section)
        store.rows = OrderStatisticTree(sorted: entries, leads: leads)
        let fresh = entries.withUnsafeBufferPointer { entries in
            locations.placeNew(slot: store.slot, count: entries.count) { entries[$0].id }
        }
        precondition(fresh, "ResultsEngine: an id loaded twice")
    }
}
