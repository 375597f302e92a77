/// What happened to a row or a section in one batch, as Core Data's
/// `NSFetchedResultsChangeType`.
///
/// ```swift
/// if change.type == .move { table.moveRow(at: change.indexPath!, to: change.newIndexPath!) }
/// ```
public enum ResultsChangeType: String, Hashable, Sendable, CustomStringConvertible {
    /// Appeared; located by its new index path.
    case insert
    /// Went away; located by its old index path.
    case delete
    /// Its own position changed; old index path to new.
    case move
    /// Changed in place; old index path, with the new one alongside.
    case update

    /// The case name, e.g. `"move"`.
    ///
    /// ```swift
    /// ResultsChangeType.update.description   // "update"
    /// ```
    public var description: String { rawValue }
}
