/// Why a fetched results controller could not fetch.
///
/// ```swift
/// do { try controller.performFetch() }
/// catch FetchedResultsError.sectionKeyNotFirstSortKey(let section, let first) { print(section, first ?? "none") }
/// ```
public enum FetchedResultsError: Error, Equatable, CustomStringConvertible {
    /// The first sort descriptor must order by the section key path, as in Core Data.
    case sectionKeyNotFirstSortKey(sectionKeyPath: String, firstSortKeyPath: String?)
    /// The fetched entity is not part of the context's schema.
    case entityNotInSchema(entity: String)
    /// A sort descriptor has no key path the store can read (e.g. a comparator-only descriptor).
    case unsupportedSortDescriptor(index: Int, description: String)
    /// A cache file exists but cannot be read; it is removed and the fetch runs in full.
    case unreadableCache(name: String, reason: String)

    /// A sentence that says what went wrong and how to fix it.
    ///
    /// ```swift
    /// print(error.description)
    /// ```
    public var description: String {
        switch self {
        case let .sectionKeyNotFirstSortKey(section, first):
            "the section key path \(section) must be the key path of the first sort descriptor (it is \(first ?? "missing")); sort by the section key first"
        case let .entityNotInSchema(entity):
            "\(entity) is not an entity of this store's schema; add it to the Schema"
        case let .unsupportedSortDescriptor(index, description):
            "sort descriptor \(index) (\(description)) has no key path the store can sort by"
        case let .unreadableCache(name, reason):
            "the results cache '\(name)' cannot be read: \(reason)"
        }
    }
}
