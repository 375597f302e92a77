import FolioChanges

extension TableSnapshot where SectionID == SectionIdentifier {
    /// A table snapshot of a fetched results controller's snapshot, its
    /// reconfigured items marked.
    ///
    /// ```swift
    /// controller.snapshotHandler = { dataSource.apply(TableSnapshot($0)) }
    /// ```
    ///
    /// - Complexity: O(items).
    public init(_ results: ResultsSnapshot<ItemID>) {
        self.init(Array(zip(results.sectionIdentifiers, results.itemIdentifiers)))
        reconfigureItems(results.reconfiguredItemIdentifiers)
    }
}
