/// Everything one batch changed: section changes first, then object changes,
/// in UITableView batch-update coordinates (docs/change-report.md).
///
/// ```swift
/// for change in changeSet.sectionChanges { print(change) }
/// for change in changeSet.objectChanges { print(change) }
/// ```
public struct ResultsChangeSet<ID: Hashable & Sendable, Section: Hashable & Sendable>: Hashable, Sendable {
    /// Section deletes (old indexes) then inserts (new indexes).
    public var sectionChanges: [SectionChange<Section>]
    /// Deletes, inserts, moves, then updates, each in index-path order.
    public var objectChanges: [ObjectChange<ID>]

    /// Creates a change set.
    ///
    /// ```swift
    /// let empty = ResultsChangeSet<Int, String>(sectionChanges: [], objectChanges: [])
    /// ```
    public init(sectionChanges: [SectionChange<Section>] = [], objectChanges: [ObjectChange<ID>] = []) {
        self.sectionChanges = sectionChanges
        self.objectChanges = objectChanges
    }

    /// True when the batch changed nothing visible.
    ///
    /// ```swift
    /// if changeSet.isEmpty { return }
    /// ```
    public var isEmpty: Bool { sectionChanges.isEmpty && objectChanges.isEmpty }

    /// The same changes with section identities mapped, e.g. keys to names.
    ///
    /// ```swift
    /// let named = changeSet.mapSections { "\($0)" }
    /// ```
    /// - Complexity: O(number of section changes + object changes).
    public func mapSections<T: Hashable & Sendable>(_ transform: (Section) -> T) -> ResultsChangeSet<ID, T> {
        ResultsChangeSet<ID, T>(
            sectionChanges: sectionChanges.map { SectionChange(type: $0.type, index: $0.index, section: transform($0.section)) },
            objectChanges: objectChanges
        )
    }
}
