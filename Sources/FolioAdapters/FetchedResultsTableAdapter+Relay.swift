import FolioTable

extension FetchedResultsTableAdapter {
    /// The delegate's section callback, relayed as is: a section inserted
    /// (new index) or deleted (old index).
    ///
    /// ```swift
    /// func controller(_ c: FetchedResultsController<Animal>, didChange s: FetchedResultsSection<Animal>,
    ///                 atSectionIndex i: Int, for type: ResultsChangeType) {
    ///     MainActor.assumeIsolated { adapter.didChangeSection(at: i, for: type) }
    /// }
    /// ```
    public func didChangeSection(at sectionIndex: Int, for type: ResultsChangeType) {
        didChange(section: SectionChange(type: type, index: sectionIndex, section: sectionIndex))
    }

    /// The delegate's object callback, relayed as is.
    ///
    /// ```swift
    /// func controller(_ c: FetchedResultsController<Animal>, didChange a: Animal, at old: IndexPath?,
    ///                 for type: ResultsChangeType, newIndexPath new: IndexPath?) {
    ///     MainActor.assumeIsolated { adapter.didChangeObject(at: old, for: type, newIndexPath: new) }
    /// }
    /// ```
    public func didChangeObject(at indexPath: IndexPath?, for type: ResultsChangeType, newIndexPath: IndexPath?) {
        didChange(object: ObjectChange(type: type, id: 0, indexPath: indexPath, newIndexPath: newIndexPath))
    }
}
