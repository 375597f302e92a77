import CSQLite
// `import FolioStore` brings Foundation, as `import CoreData` does: `SortDescriptor`,
// `#Predicate`, `Date` and `URL` need no second import.
@_exported import Foundation

/// FolioStore: a persistent object store on SQLite, in the role Core Data
/// plays on iOS.
///
/// - Declare entities as ``ManagedObject`` subclasses with `@Managed`
///   properties and an ``EntityDescription`` (attributes, to-one, to-many and
///   ordered to-many relationships with inverses and ``DeleteRule``s,
///   defaults, ``ValidationRule``s, unique constraints, indexes).
/// - Open a ``PersistentContainer`` on a file (WAL, foreign keys on) or in
///   memory; a raised ``Schema`` version migrates the file in place.
/// - Work in an ``ObjectContext``: insert, change, ``ObjectContext/delete(_:)``,
///   ``ObjectContext/save()``, ``ObjectContext/rollback()``, ``ObjectContext/undo()``.
/// - Fetch with ``FetchRequest`` (`#Predicate`, `SortDescriptor`, limit,
///   offset, batch size; see ``PredicateSupport``).
/// - Observe ``ChangeSet``s: ``ObjectContext/observeChanges(_:)``,
///   ``ObjectContext/changes()``, ``ObjectContext/observeWillSave(_:)``;
///   other contexts' and other processes' saves arrive the same way.
///
///     print(FolioStore.sqliteVersion)   // "3.40.1"
public enum FolioStore {
    /// The version of SQLite the store runs on, for diagnostics.
    public static var sqliteVersion: String { String(cString: sqlite3_libversion()) }
}
