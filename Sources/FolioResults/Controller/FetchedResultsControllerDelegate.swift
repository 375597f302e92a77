import FolioStore

/// Hears a fetched results controller's changes, in the contract's order:
/// `controllerWillChangeContent`, section changes, object changes, then
/// `controllerDidChangeContent`. Every method has a default that does nothing.
///
/// ```swift
/// final class AnimalsScreen: FetchedResultsControllerDelegate {
///     func controller(_ c: FetchedResultsController<Animal>, didChange animal: Animal,
///                     at indexPath: IndexPath?, for type: ResultsChangeType, newIndexPath: IndexPath?) {
///         print(type, indexPath as Any, newIndexPath as Any)
///     }
/// }
/// controller.delegate = screen
/// ```
public protocol FetchedResultsControllerDelegate<Object>: AnyObject {
    /// The entity the controller fetches.
    associatedtype Object: ManagedObject

    /// A batch of changes begins (`tableView.beginUpdates()`).
    ///
    /// ```swift
    /// func controllerWillChangeContent(_ c: FetchedResultsController<Animal>) { try? table.beginUpdates() }
    /// ```
    func controllerWillChangeContent(_ controller: FetchedResultsController<Object>)

    /// A section was inserted (new index) or deleted (old index).
    ///
    /// ```swift
    /// func controller(_ c: FetchedResultsController<Animal>, didChange s: FetchedResultsSection<Animal>,
    ///                 atSectionIndex i: Int, for type: ResultsChangeType) { ... }
    /// ```
    func controller(_ controller: FetchedResultsController<Object>, didChange section: FetchedResultsSection<Object>,
                    atSectionIndex sectionIndex: Int, for type: ResultsChangeType)

    /// An object was inserted, deleted, moved or updated (coordinates: docs/change-report.md §2).
    ///
    /// ```swift
    /// func controller(_ c: FetchedResultsController<Animal>, didChange a: Animal, at old: IndexPath?,
    ///                 for type: ResultsChangeType, newIndexPath new: IndexPath?) { ... }
    /// ```
    func controller(_ controller: FetchedResultsController<Object>, didChange object: Object, at indexPath: IndexPath?,
                    for type: ResultsChangeType, newIndexPath: IndexPath?)

    /// The batch is complete (`tableView.endUpdates()`).
    ///
    /// ```swift
    /// func controllerDidChangeContent(_ c: FetchedResultsController<Animal>) { try? table.endUpdates() }
    /// ```
    func controllerDidChangeContent(_ controller: FetchedResultsController<Object>)

    /// The index title for a section name; nil keeps the default (its capitalised first letter).
    ///
    /// ```swift
    /// func controller(_ c: FetchedResultsController<Animal>, sectionIndexTitleForSectionName name: String) -> String? {
    ///     "#" + name
    /// }
    /// ```
    func controller(_ controller: FetchedResultsController<Object>, sectionIndexTitleForSectionName sectionName: String) -> String?
}

/// Defaults, so a delegate implements only what it needs:
///
/// ```swift
/// final class Counter: FetchedResultsControllerDelegate {
///     var batches = 0
///     func controllerDidChangeContent(_ c: FetchedResultsController<Animal>) { batches += 1 }
/// }
/// ```
extension FetchedResultsControllerDelegate {
    /// Does nothing.
    public func controllerWillChangeContent(_ controller: FetchedResultsController<Object>) {}
    /// Does nothing.
    public func controller(_ controller: FetchedResultsController<Object>, didChange section: FetchedResultsSection<Object>,
                           atSectionIndex sectionIndex: Int, for type: ResultsChangeType) {}
    /// Does nothing.
    public func controller(_ controller: FetchedResultsController<Object>, didChange object: Object, at indexPath: IndexPath?,
                           for type: ResultsChangeType, newIndexPath: IndexPath?) {}
    /// Does nothing.
    public func controllerDidChangeContent(_ controller: FetchedResultsController<Object>) {}
    /// Keeps the default title.
    public func controller(_ controller: FetchedResultsController<Object>, sectionIndexTitleForSectionName sectionName: String) -> String? { nil }
}
