/// The whole content of a table by identity: sections and their items, in
/// order, plus the items whose cells must be made again.
///
/// ```swift
/// var snapshot = TableSnapshot<String, Int>()
/// snapshot.appendSections(["Mammals"])
/// snapshot.appendItems([1, 2], toSection: "Mammals")
/// dataSource.apply(snapshot)
/// ```
public struct TableSnapshot<SectionID: Hashable & Sendable, ItemID: Hashable & Sendable>: Sendable, Equatable {
    /// The sections, in order.
    ///
    /// ```swift
    /// let names = snapshot.sectionIdentifiers
    /// ```
    public private(set) var sectionIdentifiers: [SectionID] = []
    var itemsBySection: [SectionID: [ItemID]] = [:]
    var sectionOfItem: [ItemID: SectionID] = [:]
    /// Items whose cells are asked for again, keeping their selection.
    ///
    /// ```swift
    /// snapshot.reconfiguredItemIdentifiers.contains(id)
    /// ```
    public private(set) var reconfiguredItemIdentifiers: Set<ItemID> = []
    /// Items reloaded as a delete plus an insert (selection dropped).
    ///
    /// ```swift
    /// snapshot.reloadedItemIdentifiers.contains(id)
    /// ```
    public private(set) var reloadedItemIdentifiers: Set<ItemID> = []

    /// An empty snapshot.
    ///
    /// ```swift
    /// var snapshot = TableSnapshot<String, Int>()
    /// ```
    public init() {}

    /// A snapshot of `(section, items)` pairs: `TableSnapshot([("A", [1, 2])])`.
    ///
    /// ```swift
    /// let snapshot = TableSnapshot([("Mammals", [1, 2]), ("Birds", [3])])
    /// ```
    public init(_ sections: [(SectionID, [ItemID])]) {
        for (section, items) in sections {
            appendSections([section])
            appendItems(items, toSection: section)
        }
    }

    /// The number of sections.
    ///
    /// ```swift
    /// snapshot.numberOfSections
    /// ```
    public var numberOfSections: Int { sectionIdentifiers.count }

    /// The number of items in all sections.
    ///
    /// ```swift
    /// snapshot.numberOfItems
    /// ```
    public var numberOfItems: Int { sectionOfItem.count }

    /// All items, section by section.
    ///
    /// - Complexity: O(items).
    ///
    /// ```swift
    /// for id in snapshot.itemIdentifiers { print(id) }
    /// ```
    public var itemIdentifiers: [ItemID] { sectionIdentifiers.flatMap { itemsBySection[$0] ?? [] } }

    /// The items of one section, in order.
    ///
    /// ```swift
    /// snapshot.itemIdentifiers(inSection: "Mammals")
    /// ```
    public func itemIdentifiers(inSection section: SectionID) -> [ItemID] {
        itemsBySection[section] ?? []
    }

    /// The section holding an item, or nil.
    ///
    /// ```swift
    /// snapshot.sectionIdentifier(containingItem: 3)   // "Birds"
    /// ```
    public func sectionIdentifier(containingItem item: ItemID) -> SectionID? {
        sectionOfItem[item]
    }

    /// Appends sections; a section already present is a programmer error.
    ///
    /// ```swift
    /// snapshot.appendSections(["Birds", "Fish"])
    /// ```
    public mutating func appendSections(_ sections: [SectionID]) {
        for section in sections {
            precondition(itemsBySection[section] == nil, "section \(section) is already in the snapshot")
            sectionIdentifiers.append(section)
            itemsBySection[section] = []
        }
    }

    /// Appends items to a section (the last one when nil); an item already
    /// present is a programmer error.
    ///
    /// - Complexity: O(items appended).
    ///
    /// ```swift
    /// snapshot.appendItems([4, 5], toSection: "Birds")
    /// ```
    public mutating func appendItems(_ items: [ItemID], toSection section: SectionID? = nil) {
        guard let target = section ?? sectionIdentifiers.last else {
            preconditionFailure("appendItems(_:toSection:) with no section in the snapshot")
        }
        precondition(itemsBySection[target] != nil, "section \(target) is not in the snapshot")
        for item in items {
            precondition(sectionOfItem[item] == nil, "item \(item) is already in the snapshot")
            sectionOfItem[item] = target
        }
        itemsBySection[target]?.append(contentsOf: items)
    }

    /// Removes items.
    ///
    /// - Complexity: O(items in the sections touched).
    ///
    /// ```swift
    /// snapshot.deleteItems([4])
    /// ```
    public mutating func deleteItems(_ items: [ItemID]) {
        let doomed = Set(items)
        for section in Set(items.compactMap { sectionOfItem[$0] }) {
            itemsBySection[section]?.removeAll { doomed.contains($0) }
        }
        for item in items {
            sectionOfItem[item] = nil
            reconfiguredItemIdentifiers.remove(item)
            reloadedItemIdentifiers.remove(item)
        }
    }

    /// Removes sections and their items.
    ///
    /// ```swift
    /// snapshot.deleteSections(["Birds"])
    /// ```
    public mutating func deleteSections(_ sections: [SectionID]) {
        for section in sections {
            deleteItems(itemsBySection[section] ?? [])
            itemsBySection[section] = nil
            sectionIdentifiers.removeAll { $0 == section }
        }
    }

    /// Marks items to have their cells asked for again (selection kept).
    ///
    /// ```swift
    /// snapshot.reconfigureItems([2])
    /// ```
    public mutating func reconfigureItems(_ items: [ItemID]) {
        reconfiguredItemIdentifiers.formUnion(items.filter { sectionOfItem[$0] != nil })
    }

    /// Marks items to be reloaded (a delete plus an insert: selection dropped).
    ///
    /// ```swift
    /// snapshot.reloadItems([2])
    /// ```
    public mutating func reloadItems(_ items: [ItemID]) {
        reloadedItemIdentifiers.formUnion(items.filter { sectionOfItem[$0] != nil })
    }

    /// The same content with no items marked for reconfiguring or reloading.
    var contentOnly: TableSnapshot {
        var copy = self
        copy.reconfiguredItemIdentifiers = []
        copy.reloadedItemIdentifiers = []
        return copy
    }
}
