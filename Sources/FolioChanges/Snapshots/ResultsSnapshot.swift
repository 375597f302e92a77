/// The whole result set as identifiers, for diffable data sources: section
/// identifiers (each section's key, never repeated: see ``SectionIdentifier``),
/// item identifiers per section, and the items whose content changed in
/// place and should be reconfigured.
///
/// ```swift
/// controller.snapshotHandler = { snapshot in
///     for (section, items) in zip(snapshot.sectionIdentifiers, snapshot.itemIdentifiers) { print(section.name, items.count) }
/// }
/// ```
public struct ResultsSnapshot<ID: Hashable & Sendable>: Hashable, Sendable {
    /// Section identifiers in order.
    public var sectionIdentifiers: [SectionIdentifier]
    /// Item identifiers of each section, in order.
    public var itemIdentifiers: [[ID]]
    /// Items that changed and were not inserted (updated or moved): reconfigure their cells.
    public var reconfiguredItemIdentifiers: [ID]

    /// Creates a snapshot.
    ///
    /// ```swift
    /// ResultsSnapshot<Int>(sectionIdentifiers: [SectionIdentifier("A")], itemIdentifiers: [[1, 2]], reconfiguredItemIdentifiers: [])
    /// ```
    public init(sectionIdentifiers: [SectionIdentifier], itemIdentifiers: [[ID]], reconfiguredItemIdentifiers: [ID]) {
        precondition(
            sectionIdentifiers.count == itemIdentifiers.count,
            "ResultsSnapshot: \(sectionIdentifiers.count) sections but \(itemIdentifiers.count) item lists")
        precondition(
            Set(sectionIdentifiers).count == sectionIdentifiers.count,
            "ResultsSnapshot: section identifiers repeat in \(sectionIdentifiers)")
        self.sectionIdentifiers = sectionIdentifiers
        self.itemIdentifiers = itemIdentifiers
        self.reconfiguredItemIdentifiers = reconfiguredItemIdentifiers
    }

    /// The number of items in all sections.
    ///
    /// ```swift
    /// snapshot.numberOfItems
    /// ```
    /// - Complexity: O(s) for s sections.
    public var numberOfItems: Int { itemIdentifiers.reduce(0) { $0 + $1.count } }

    /// The items of the section with this identifier (empty when absent).
    ///
    /// ```swift
    /// snapshot.itemIdentifiers(inSection: SectionIdentifier("Mammals"))
    /// ```
    /// - Complexity: O(s).
    public func itemIdentifiers(inSection identifier: SectionIdentifier) -> [ID] {
        sectionIdentifiers.firstIndex(of: identifier).map { itemIdentifiers[$0] } ?? []
    }
}
