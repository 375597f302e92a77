import Foundation

/// One reported change to one object, in UITableView batch-update coordinates.
///
/// - `insert`: `newIndexPath` only (in the new results);
/// - `delete`: `indexPath` only (in the old results);
/// - `move`: `indexPath` (old) and `newIndexPath` (new), never equal;
/// - `update`: `indexPath` (old) and `newIndexPath` (where the row now is,
///   to configure the cell from).
///
/// ```swift
/// let change = ObjectChange(type: .delete, id: 7, indexPath: IndexPath(row: 2, section: 0), newIndexPath: nil)
/// print(change)   // delete 7 [0, 2]
/// ```
public struct ObjectChange<ID: Hashable & Sendable>: Hashable, Sendable, CustomStringConvertible {
    /// The kind of change.
    public var type: ResultsChangeType
    /// The object's identifier.
    public var id: ID
    /// The old index path (delete, move, update).
    public var indexPath: IndexPath?
    /// The new index path (insert, move, update).
    public var newIndexPath: IndexPath?

    /// Creates a change record.
    ///
    /// ```swift
    /// ObjectChange(type: .insert, id: 1, indexPath: nil, newIndexPath: IndexPath(row: 0, section: 0))
    /// ```
    public init(type: ResultsChangeType, id: ID, indexPath: IndexPath?, newIndexPath: IndexPath?) {
        self.type = type
        self.id = id
        self.indexPath = indexPath
        self.newIndexPath = newIndexPath
    }

    /// `type id [old] -> [new]`, e.g. `move 4 [0, 1] -> [2, 0]`.
    ///
    /// ```swift
    /// "\(change)"
    /// ```
    public var description: String {
        switch (indexPath, newIndexPath) {
        case let (old?, new?): "\(type) \(id) \(old) -> \(new)"
        case let (old?, nil): "\(type) \(id) \(old)"
        case let (nil, new?): "\(type) \(id) \(new)"
        case (nil, nil): "\(type) \(id)"
        }
    }
}
