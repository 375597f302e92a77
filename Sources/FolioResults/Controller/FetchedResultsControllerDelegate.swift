import FolioStore

/// Hears a fetched results controller's changes, with Core Data's
/// `NSFetchedResultsControllerDelegate` signatures: the controller comes
/// type-erased (``AnyFetchedResultsController``, Core Data's
/// `NSFetchedResultsController<NSFetchRequestResult>`) and objects as
/// `Any`, so one delegate serves controllers of any entity, and a method
/// written with Core Data's signature is the requirement, not a look-alike
/// that is never called.
///
/// Each batch arrives once, whole, at `controller(_:didChangeContentWith:)`.
/// Its default implementation makes Core Data's classic calls, in the
/// contract's order: `controllerWillChangeContent`, every section change,
/// every object change, then `controllerDidChangeContent`. Implement it to
/// take the batch whole instead (then the classic calls are not made, as in
/// Core Data when the delegate takes a snapshot or a difference).
/// Every method has a default that does nothing, so a method whose
/// signature misses the protocol's is never called: declare the conformance
/// on an extension that holds the methods, as below, where the compiler
/// warns of a near miss. A delegate none of whose per-change methods
/// matched is named on standard error after its first batch (debug builds).
///
/// ```swift
/// extension ZooViewController: FetchedResultsControllerDelegate {
///     func controllerWillChangeContent(_ controller: AnyFetchedResultsController) { tableView.beginUpdates() }
///     func controller(_ controller: AnyFetchedResultsController, didChange anObject: Any, at indexPath: IndexPath?,
///                     for type: ResultsChangeType, newIndexPath: IndexPath?) {
///         switch type {
///         case .insert: tableView.insertRows(at: [newIndexPath!], with: .fade)
///         case .delete: tableView.deleteRows(at: [indexPath!], with: .fade)
///         case .move: tableView.moveRow(at: indexPath!, to: newIndexPath!)
///         case .update: tableView.reloadRows(at: [indexPath!], with: .none)
///         }
///     }
///     func controllerDidChangeContent(_ controller: AnyFetchedResultsController) { tableView.endUpdates() }
/// }
/// ```
@MainActor
public protocol FetchedResultsControllerDelegate: AnyObject {
    /// One batch, whole: section changes, then object changes, in table
    /// batch-update coordinates (see docs/change-report.md). The default
    /// makes the classic calls below.
    ///
    /// ```swift
    /// func controller(_ controller: AnyFetchedResultsController, didChangeContentWith changes: FetchedResultsChanges) {
    ///     adapter.apply(changes)
    /// }
    /// ```
    func controller(_ controller: AnyFetchedResultsController, didChangeContentWith changes: FetchedResultsChanges)

    /// A batch of changes begins (`tableView.beginUpdates()`).
    ///
    /// ```swift
    /// func controllerWillChangeContent(_ controller: AnyFetchedResultsController) { tableView.beginUpdates() }
    /// ```
    func controllerWillChangeContent(_ controller: AnyFetchedResultsController)

    /// A section was inserted (new index) or deleted (old index).
    ///
    /// ```swift
    /// func controller(_ controller: AnyFetchedResultsController, didChange sectionInfo: FetchedResultsSectionInfo,
    ///                 atSectionIndex sectionIndex: Int, for type: ResultsChangeType) {
    ///     if type == .insert { tableView.insertSections(IndexSet(integer: sectionIndex), with: .fade) }
    /// }
    /// ```
    func controller(
        _ controller: AnyFetchedResultsController, didChange sectionInfo: any FetchedResultsSectionInfo,
        atSectionIndex sectionIndex: Int, for type: ResultsChangeType)

    /// An object was inserted, deleted, moved or updated (coordinates in docs/change-report.md).
    ///
    /// ```swift
    /// func controller(_ controller: AnyFetchedResultsController, didChange anObject: Any, at indexPath: IndexPath?,
    ///                 for type: ResultsChangeType, newIndexPath: IndexPath?) {
    ///     if type == .delete { tableView.deleteRows(at: [indexPath!], with: .fade) }
    /// }
    /// ```
    func controller(
        _ controller: AnyFetchedResultsController, didChange anObject: Any, at indexPath: IndexPath?,
        for type: ResultsChangeType, newIndexPath: IndexPath?)

    /// The batch is complete (`tableView.endUpdates()`).
    ///
    /// ```swift
    /// func controllerDidChangeContent(_ controller: AnyFetchedResultsController) { tableView.endUpdates() }
    /// ```
    func controllerDidChangeContent(_ controller: AnyFetchedResultsController)

    /// The index title for a section name; nil keeps the default (its capitalised first letter).
    ///
    /// ```swift
    /// func controller(_ controller: AnyFetchedResultsController, sectionIndexTitleForSectionName sectionName: String) -> String? {
    ///     sectionName
    /// }
    /// ```
    func controller(_ controller: AnyFetchedResultsController, sectionIndexTitleForSectionName sectionName: String) -> String?
}

/// Defaults: the whole batch becomes the classic calls, which do nothing.
///
/// ```swift
/// final class Counter: FetchedResultsControllerDelegate {
///     var batches = 0
///     func controllerDidChangeContent(_ controller: AnyFetchedResultsController) { batches += 1 }
/// }
/// ```
extension FetchedResultsControllerDelegate {
    /// Makes the classic calls: will, each section, each object, did.
    public func controller(_ controller: AnyFetchedResultsController, didChangeContentWith changes: FetchedResultsChanges) {
        controller.reportEachChange(changes, to: self)
    }
    // The per-change defaults count themselves, so that a delegate none of
    // whose methods matched is named (AnyFetchedResultsController+UnheardDelegate).
    /// Does nothing.
    public func controllerWillChangeContent(_ controller: AnyFetchedResultsController) {
        controller.noteDefaultDelegateCall()
    }
    /// Does nothing.
    public func controller(
        _ controller: AnyFetchedResultsController, didChange sectionInfo: any FetchedResultsSectionInfo,
        atSectionIndex sectionIndex: Int, for type: ResultsChangeType
    ) {
        controller.noteDefaultDelegateCall()
    }
    /// Does nothing.
    public func controller(
        _ controller: AnyFetchedResultsController, didChange anObject: Any, at indexPath: IndexPath?,
        for type: ResultsChangeType, newIndexPath: IndexPath?
    ) {
        controller.noteDefaultDelegateCall()
    }
    /// Does nothing.
    public func controllerDidChangeContent(_ controller: AnyFetchedResultsController) {
        controller.noteDefaultDelegateCall()
    }
    /// Keeps the default title.
    public func controller(_ controller: AnyFetchedResultsController, sectionIndexTitleForSectionName sectionName: String) -> String? {
        nil
    }
}
