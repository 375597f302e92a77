extension ResultsEngine {
    /// The number of rows in all sections.
    ///
    /// ```swift
    /// engine.count
    /// ```
    package var count: Int { locations.count }

    /// The number of sections.
    ///
    /// ```swift
    /// engine.numberOfSections
    /// ```
    package var numberOfSections: Int { sectionOrder.count }

    /// The section key at an index.
    ///
    /// ```swift
    /// engine.section(at: 0)
    /// ```
    /// - Complexity: O(log s) for s sections.
    package func section(at index: Int) -> Section {
        precondition(index >= 0 && index < numberOfSections, "ResultsEngine: section \(index) out of 0..<\(numberOfSections)")
        return sectionOrder.element(at: index)
    }

    /// The index of a section key, or nil if no row has it.
    ///
    /// ```swift
    /// engine.sectionIndex(of: "Mammals")
    /// ```
    /// - Complexity: O(log s).
    package func sectionIndex(of section: Section) -> Int? {
        stores[section] == nil ? nil : sectionOrder.rank(of: section)
    }

    /// The number of rows in a section.
    ///
    /// ```swift
    /// engine.numberOfRows(inSection: 0)
    /// ```
    /// - Complexity: O(log s).
    package func numberOfRows(inSection index: Int) -> Int {
        stores[section(at: index)]!.rows.count
    }

    /// The identifier at an index path.
    ///
    /// ```swift
    /// engine.id(at: IndexPath(row: 0, section: 0))
    /// ```
    /// - Complexity: O(log n).
    package func id(at indexPath: IndexPath) -> ID {
        let rows = stores[section(at: indexPath.section)]!.rows
        precondition(
            indexPath.row >= 0 && indexPath.row < rows.count,
            "ResultsEngine: no row at \(indexPath); section \(indexPath.section) has \(rows.count)")
        return rows.element(at: indexPath.row).id
    }

    /// The index path of an identifier, or nil when it is not in the results.
    ///
    /// ```swift
    /// engine.indexPath(of: 42)
    /// ```
    /// - Complexity: O(log n).
    package func indexPath(of id: ID) -> IndexPath? {
        guard let location = locations[id] else { return nil }
        let rows = storeOf(location).rows
        return IndexPath(row: rows.rank(ofHandle: location.handle), section: sectionOrder.rank(of: storeOf(location).section))
    }

    /// True when the identifier is in the results.
    ///
    /// ```swift
    /// engine.contains(42)
    /// ```
    /// - Complexity: O(1).
    package func contains(_ id: ID) -> Bool { locations[id] != nil }

    /// The row (keys) stored for an identifier.
    ///
    /// ```swift
    /// engine.row(for: 42)?.section
    /// ```
    /// - Complexity: O(1).
    package func row(for id: ID) -> ResultsRow<ID, Key, Section>? {
        guard let location = locations[id] else { return nil }
        return ResultsRow(id: id, key: storeOf(location).rows[location.handle].key, section: storeOf(location).section)
    }

    /// The identifiers of one section, in order.
    ///
    /// ```swift
    /// engine.ids(inSection: 0)
    /// ```
    /// - Complexity: O(m) for m rows in the section.
    package func ids(inSection index: Int) -> [ID] {
        stores[section(at: index)]!.rows.sortedElements().map(\.id)
    }

    /// Identifiers of rows `range` of a section, in order.
    ///
    /// ```swift
    /// engine.ids(inSection: 0, rows: 0..<20)
    /// ```
    /// - Complexity: O(r log n) for r rows.
    package func ids(inSection index: Int, rows range: Range<Int>) -> [ID] {
        let rows = stores[section(at: index)]!.rows
        return range.map { rows.element(at: $0).id }
    }

    /// Every identifier, in no particular order.
    ///
    /// ```swift
    /// let ids = engine.allIDs()
    /// ```
    /// - Complexity: O(n).
    package func allIDs() -> [ID] { locations.keys }

    /// Every section key with its identifiers, in order.
    ///
    /// ```swift
    /// for (section, ids) in engine.snapshot() { print(section, ids.count) }
    /// ```
    /// - Complexity: O(n).
    package func snapshot() -> [(section: Section, ids: [ID])] {
        sectionOrder.sortedElements().map { ($0, stores[$0]!.rows.sortedElements().map(\.id)) }
    }

    /// Checks the trees and the identifier map agree; traps with a message otherwise.
    ///
    /// ```swift
    /// engine.checkInvariants()
    /// ```
    /// - Complexity: O(n).
    package func checkInvariants() {
        sectionOrder.checkInvariants()
        precondition(slots.compactMap { $0 }.count == stores.count, "ResultsEngine: slots and sections disagree")
        precondition(sectionOrder.count == stores.count, "ResultsEngine: \(sectionOrder.count) ordered sections, \(stores.count) stored")
        var total = 0
        for (section, store) in stores {
            precondition(store.section == section, "ResultsEngine: section \(section) filed under another key")
            precondition(sectionOrder.handle(of: section) != nil, "ResultsEngine: section \(section) missing from the order")
            precondition(store.rows.count > 0 || section == fixedSection, "ResultsEngine: empty section \(section) kept")
            store.rows.checkInvariants()
            store.rows.forEachInOrder { entry in
                guard let location = self.locations[entry.id] else { preconditionFailure("ResultsEngine: id \(entry.id) not in the map") }
                precondition(
                    location.slot == store.slot && storeOf(location).rows[location.handle] == entry,
                    "ResultsEngine: id \(entry.id) mislocated")
            }
            total += store.rows.count
        }
        precondition(total == locations.count, "ResultsEngine: \(locations.count) ids mapped, \(total) rows stored")
    }
}
