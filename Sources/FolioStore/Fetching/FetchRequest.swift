import Foundation

/// What to fetch: an entity, an optional `#Predicate`, `SortDescriptor`s,
/// limit, offset and batch size.
///
///     var request = FetchRequest<Animal>(
///         predicate: #Predicate { $0.classification?.order == "Primates" },
///         sortBy: [SortDescriptor(\.classification?.order), SortDescriptor(\.commonName)])
///     request.fetchLimit = 20
///     let animals = try context.fetch(request)
///
/// See ``PredicateSupport`` for what a predicate may contain, and
/// ``StoreValue/compare(_:_:)`` for how values sort.
public struct FetchRequest<Entity: ManagedObject> {
    /// Which objects; nil fetches all.
    public var predicate: Predicate<Entity>?
    /// Extra string conditions `#Predicate` cannot express here (case-insensitive, ends-with), ANDed with the predicate.
    public var stringFilters: [StringFilter<Entity>] = []
    /// The order; ties are broken by object ID. Key paths may go through to-one relationships.
    public var sortDescriptors: [SortDescriptor<Entity>]
    /// At most this many objects; 0 means no limit.
    public var fetchLimit = 0
    /// Skips this many objects first.
    public var fetchOffset = 0
    /// With a value above 0, `fetch` returns a collection that loads objects
    /// this many at a time and keeps only IDs resident.
    public var fetchBatchSize = 0
    /// Whether unsaved inserts, changes and deletes of the context count (they do by default, as in Core Data).
    public var includesPendingChanges = true

    /// A request for `Entity`.
    ///
    ///     FetchRequest<Planet>(sortBy: [SortDescriptor(\.position)])
    public init(predicate: Predicate<Entity>? = nil, sortBy: [SortDescriptor<Entity>] = []) {
        self.predicate = predicate
        self.sortDescriptors = sortBy
    }

    /// Whether each sort descriptor is ascending.
    public var ascending: [Bool] { sortDescriptors.map { $0.order == .forward } }
}

/// A string condition on an attribute that `#Predicate` on Linux cannot
/// express: case-insensitive (ASCII) equality, contains, prefix, suffix.
///
///     request.stringFilters = [.init(\.commonName, .contains("monkey"), caseInsensitive: true)]
public struct StringFilter<Entity: ManagedObject> {
    /// How the attribute's text is matched.
    public enum Match: Sendable {
        case equals(String), contains(String), beginsWith(String), endsWith(String)
    }
    let keyPath: PartialKeyPath<Entity>
    let match: Match
    let caseInsensitive: Bool

    /// A condition on a String attribute (possibly through to-one relationships).
    ///
    ///     StringFilter(\Animal.habitat, .endsWith("Forest"), caseInsensitive: true)
    public init<V>(_ keyPath: KeyPath<Entity, V>, _ match: Match, caseInsensitive: Bool = false) {
        self.keyPath = keyPath
        self.match = match
        self.caseInsensitive = caseInsensitive
    }

    /// The same test in memory, for unsaved objects.
    func matches(_ text: String) -> Bool {
        let t = caseInsensitive ? asciiLowercased(text) : text
        func n(_ s: String) -> String { caseInsensitive ? asciiLowercased(s) : s }
        switch match {
        case .equals(let s): return t == n(s)
        case .contains(let s): return s.isEmpty || t.contains(n(s))
        case .beginsWith(let s): return t.hasPrefix(n(s))
        case .endsWith(let s): return t.hasSuffix(n(s))
        }
    }
}

/// Lowercases A–Z only, as SQLite's `lower()` does.
func asciiLowercased(_ s: String) -> String {
    String(decoding: s.utf8.map { (65...90).contains($0) ? $0 + 32 : $0 }, as: UTF8.self)
}
