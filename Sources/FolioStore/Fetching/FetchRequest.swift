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
