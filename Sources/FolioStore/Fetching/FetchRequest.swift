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
    /// The entity named by Core Data's `FetchRequest(entityName:)`; nil when
    /// the type alone names it. Checked against `Entity` when fetched.
    public private(set) var entityName: String?

    /// A request for `Entity`.
    ///
    ///     FetchRequest<Planet>(sortBy: [SortDescriptor(\.position)])
    public init(predicate: Predicate<Entity>? = nil, sortBy: [SortDescriptor<Entity>] = []) {
        self.predicate = predicate
        self.sortDescriptors = sortBy
    }

    /// Core Data's form: the entity by name, checked when the request is
    /// fetched (``StoreError/otherEntityName(named:fetched:)`` when it is not `Entity`'s).
    ///
    ///     var request = FetchRequest<Animal>(entityName: "Animal")
    ///     request.sortDescriptors = [SortDescriptor(key: "commonName", ascending: true)]
    public init(entityName: String) {
        self.init()
        self.entityName = entityName
    }

    /// Throws when the request names an entity other than `entity`.
    package func checkEntityName(_ entity: EntityDescription) throws {
        guard let entityName, entityName != entity.name else { return }
        throw StoreError.otherEntityName(named: entityName, fetched: entity.name)
    }

    /// Whether each sort descriptor is ascending.
    public var ascending: [Bool] { sortDescriptors.map { $0.order == .forward } }
}
