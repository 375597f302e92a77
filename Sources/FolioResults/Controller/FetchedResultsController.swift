import FolioStore
import Foundation

/// Live, sorted, sectioned results of a fetch request, with an exact change
/// report for every change its context sees (Core Data's
/// `NSFetchedResultsController`). The delegate receives it as an
/// ``AnyFetchedResultsController``.
///
/// It follows its context as Core Data's does: unsaved inserts, deletes and
/// changes made in the context are in the results, and reported, when the
/// context processes them (at the end of the main-actor turn, at
/// `processPendingChanges()`, before a save); a save reports nothing more
/// (new objects keep their rows under their permanent IDs); a rollback is
/// reported back; other contexts' and processes' changes arrive when saved.
///
/// Only object IDs and sort/section keys stay resident; a batch of k changed
/// objects re-reads and re-places those k rows in O(k log n).
///
/// ```swift
/// let request = FetchRequest<Animal>(sortBy: [SortDescriptor(\.classification?.order), SortDescriptor(\.commonName)])
/// let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context,
///                                           sectionNameKeyPath: \Animal.classification?.order, cacheName: "Animals")
/// controller.delegate = screen
/// try controller.performFetch()
/// let first = controller.object(at: IndexPath(row: 0, section: 0))
/// ```
public final class FetchedResultsController<Entity: ManagedObject>: AnyFetchedResultsController {
    /// The request. Change it with ``updateFetchRequest(_:)`` to hear the
    /// difference as a change report, or set it and call `performFetch()`
    /// (and reload the table), as in Core Data.
    ///
    /// ```swift
    /// controller.fetchRequest.predicate = #Predicate { $0.habitat == "Savanna" }
    /// try controller.performFetch()
    /// ```
    public var fetchRequest: FetchRequest<Entity> {
        didSet { preparedFetches = PreparedFetches<Entity>() }
    }
    /// The key path whose value names each object's section; nil for one section.
    public let sectionNameKeyPath: PartialKeyPath<Entity>?

    /// True when the last `performFetch()` built its sections from the cache.
    package internal(set) var lastFetchUsedCache = false
    var plan: KeyPlan<Entity>?
    var observation: ObservationToken?
    /// For keys and filters read through a to-one relationship: related object → dependent rows, and back.
    var relatedKeys = RelatedKeyIndex()
    /// Objects of batches whose keys the store could not read, read again later (see ``placeUnread``).
    var unread = UnreadObjects()
    /// The key fetches translated for the current request, reused by every save until it changes.
    var preparedFetches = PreparedFetches<Entity>()
    /// The unfiltered results while a search filters them (see ``refetchInMemory(_:previous:narrowing:)``).
    var searchSession: SearchSession<Entity>?
    /// A search keystroke that changes more rows than this is reported as
    /// the sections replaced, not row by row: the table reloads instead of
    /// animating hundreds of thousands of rows, and the results rebuild in O(n).
    package var itemizedSearchLimit = 8_192

    /// Creates a controller; nothing is fetched until `performFetch()`.
    /// The labels are Core Data's.
    ///
    /// ```swift
    /// let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context,
    ///                                           sectionNameKeyPath: nil, cacheName: nil)
    /// ```
    public init(
        fetchRequest: FetchRequest<Entity>, managedObjectContext context: ObjectContext,
        sectionNameKeyPath: PartialKeyPath<Entity>? = nil, cacheName: String? = nil
    ) {
        self.fetchRequest = fetchRequest
        self.sectionNameKeyPath = sectionNameKeyPath
        super.init(
            managedObjectContext: context, cacheName: cacheName, entityName: Entity.entity.name, sectioned: sectionNameKeyPath != nil)
    }

    /// Fetches the results afresh (after a change to the request, too) and
    /// reports nothing, as in Core Data. Throws when the first sort
    /// descriptor does not order by the section key path.
    ///
    /// ```swift
    /// try controller.performFetch()
    /// ```
    /// - Complexity: O(n log n); from a valid cache O(s) for s sections and
    ///   8 bytes read a row, the rest loading in O(n) off the main actor
    ///   (or at once, when a change or a lookup needs it first).
    override public func performFetch() throws {
        // Unsaved changes made so far are processed first, so that the results hold them and
        // the batches that follow report only what changes after the fetch.
        managedObjectContext.processPendingChanges()
        // Read everything first, so that a failure leaves the previous results intact.
        if let entity = managedObjectContext.schema.entity(named: Entity.entity.name) { try fetchRequest.checkEntityName(entity) }
        let plan = try KeyPlan(request: fetchRequest, sectionKeyPath: sectionNameKeyPath, context: managedObjectContext)
        // The cache holds saved rows; unsaved changes are part of the results.
        let pending = managedObjectContext.hasChanges
        let order = pending ? nil : cacheName.flatMap { ResultsCache.open(name: $0, plan: plan, context: managedObjectContext) }
        let fresh = order != nil ? nil : try engineFromStore(plan)
        let links = plan.related.isEmpty ? [] : try fetchRelatedRows(plan, restrictedTo: nil)
        let objects = fetchRequest.fetchBatchSize == 0 ? try materialiseAll() : [:]

        self.plan = plan
        hasFetched = true
        lastError = nil
        lastFetchUsedCache = order != nil
        cachedOrder.show(nil)
        searchSession = nil
        if let fresh { engine.adopt(fresh) } else { engine.load([]) }
        // From the cache, the table draws from the file; the whole order loads off the main actor,
        // or at once when something needs every row first (``loadWholeOrder()``).
        cachedOrder.show(order)
        sectionCache = nil
        resident = ResidentObjects(all: objects)
        relatedKeys = RelatedKeyIndex(plan.related)
        relatedKeys.link(links, removed: [])
        unread.removeAll()
        if let cacheName, order == nil, !pending {
            ResultsCache.store(name: cacheName, plan: plan, engine: engine, context: managedObjectContext)
        }
        followContext()
        if order != nil { cachedOrder.loadApart { [weak self] in self?.finishLoading($0, $1) } }
    }

    /// Loads a relaunch's whole cached order now, on the main actor, when one is shown.
    override func loadWholeOrder() {
        guard let (order, loaded) = cachedOrder.loadNow() else { return }
        finishLoading(order, loaded)
    }

    /// All fetched objects in order, or nil before `performFetch()`.
    ///
    /// ```swift
    /// controller.fetchedObjects?.count
    /// ```
    /// - Complexity: O(n log n); materialises every object.
    public var fetchedObjects: [Entity]? {
        guard hasFetched else { return nil }
        return (0..<shownSectionCount).flatMap { objects(inSection: $0) }
    }

    /// The object at an index path; the index path must exist.
    ///
    /// ```swift
    /// let animal = controller.object(at: IndexPath(row: 2, section: 1))
    /// ```
    /// - Complexity: O(log n), plus one batch read when batching.
    public func object(at indexPath: IndexPath) -> Entity {
        let object = super.object(at: indexPath)
        // The schema maps the entity's name to its class, so this holds; a checked cast keeps a mistake from going unseen.
        guard let typed = object as? Entity else {
            preconditionFailure("the object at \(indexPath) is a \(type(of: object)), not a \(Entity.self)")
        }
        return typed
    }

    override func materialise(at indexPath: IndexPath, id: Int64) -> ManagedObject {
        materialiseBatch(around: indexPath, id: id)
    }

    /// The objects of section `index`, in order.
    ///
    /// ```swift
    /// controller.objects(inSection: 0).map(\.commonName)
    /// ```
    /// - Complexity: O(m log n) for m objects.
    public func objects(inSection index: Int) -> [Entity] {
        (0..<shownRowCount(inSection: index)).map { object(at: IndexPath(row: $0, section: index)) }
    }
}
