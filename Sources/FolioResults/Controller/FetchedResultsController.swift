import Foundation
import FolioStore

/// Live, sorted, sectioned results of a fetch request, with an exact change
/// report after every save the context sees (Core Data's
/// `NSFetchedResultsController`).
///
/// Only object IDs and sort/section keys stay resident; a save of k objects
/// re-reads and re-places those k rows in O(k log n).
///
/// ```swift
/// let request = FetchRequest<Animal>(sortBy: [SortDescriptor(\.classification?.order), SortDescriptor(\.commonName)])
/// let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context,
///                                           sectionNameKeyPath: \Animal.classification?.order, cacheName: "Animals")
/// controller.delegate = screen
/// try controller.performFetch()
/// let first = controller.object(at: IndexPath(row: 0, section: 0))
/// ```
public final class FetchedResultsController<Entity: ManagedObject> {
    typealias Engine = ResultsEngine<Int64, RowKey, SectionKey>

    /// The request; change its predicate or sort descriptors, then call `performFetch()` again.
    ///
    /// ```swift
    /// controller.fetchRequest.predicate = #Predicate { $0.habitat == "Savanna" }
    /// try controller.performFetch()
    /// ```
    public var fetchRequest: FetchRequest<Entity>
    /// The context whose saves (and merges) the controller follows.
    public let managedObjectContext: ObjectContext
    /// The key path whose value names each object's section; nil for one section.
    public let sectionNameKeyPath: PartialKeyPath<Entity>?
    /// The name of the persistent section cache, if any.
    public let cacheName: String?
    /// Hears the changes (see ``FetchedResultsControllerDelegate``).
    public weak var delegate: (any FetchedResultsControllerDelegate<Entity>)? {
        didSet { sectionCache = nil }   // index titles may come from the delegate
    }
    /// Called after each batch with the whole result set as identifiers, for diffable data sources.
    ///
    /// ```swift
    /// controller.snapshotHandler = { snapshot in dataSource.apply(snapshot) }
    /// ```
    public var snapshotHandler: ((ResultsSnapshot<ObjectID>) -> Void)?

    /// True when the last `performFetch()` built its sections from the cache.
    ///
    /// ```swift
    /// try controller.performFetch(); controller.lastFetchUsedCache
    /// ```
    package private(set) var lastFetchUsedCache = false
    /// The last error met while following a save (the results were left as
    /// they were); nil after a successful `performFetch()`.
    ///
    /// ```swift
    /// if let error = controller.lastError { print(error); try controller.performFetch() }
    /// ```
    public internal(set) var lastError: (any Error)?
    let engine: Engine
    var plan: KeyPlan<Entity>?
    var observation: ObservationToken?
    var saveObservation: ObservationToken?
    var suppression = 0
    /// The sections as last built; dropped whenever the results change.
    var sectionCache: [FetchedResultsSection<Entity>]?
    let broadcaster = ChangeSetBroadcaster<ResultsChangeSet<ObjectID, String>>()
    /// Objects kept alive: all of them without batching, recent batches with it.
    var resident: [Int64: Entity] = [:]
    var residentBatches: [Int64: [Int64]] = [:]
    var batchOrder: [Int64] = []
    /// For key paths through a to-one relationship: related row → dependent rows, and back.
    var dependents: [Int64: Set<Int64>] = [:]
    var relatedOf: [Int64: [Int64]] = [:]

    /// Creates a controller; nothing is fetched until `performFetch()`.
    /// The labels are Core Data's.
    ///
    /// ```swift
    /// let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context,
    ///                                           sectionNameKeyPath: nil, cacheName: nil)
    /// ```
    public init(fetchRequest: FetchRequest<Entity>, managedObjectContext context: ObjectContext,
                sectionNameKeyPath: PartialKeyPath<Entity>? = nil, cacheName: String? = nil) {
        self.fetchRequest = fetchRequest
        self.managedObjectContext = context
        self.sectionNameKeyPath = sectionNameKeyPath
        self.cacheName = cacheName
        self.engine = Engine(fixedSection: sectionNameKeyPath == nil ? SectionKey(.null, ascending: true) : nil)
    }

    /// Fetches the results (again, after a change to the request). Throws when
    /// the first sort descriptor does not order by the section key path.
    ///
    /// ```swift
    /// try controller.performFetch()
    /// ```
    /// - Complexity: O(n log n), or O(n) from a valid cache.
    public func performFetch() throws {
        // Read everything first, so that a failure leaves the previous results intact.
        let plan = try KeyPlan(request: fetchRequest, sectionKeyPath: sectionNameKeyPath, context: managedObjectContext)
        let cached = cacheName.flatMap { ResultsCache.load(name: $0, plan: plan, context: managedObjectContext) }
        let rows = try cached ?? fetchKeyRows(plan, restrictedTo: nil).map { plan.row(id: $0.0, values: $0.1) }
        let links = plan.related.isEmpty ? [] : try fetchRelatedRows(plan, restrictedTo: nil)
        let objects = fetchRequest.fetchBatchSize == 0 ? try materialiseAll() : [:]

        self.plan = plan
        lastError = nil
        lastFetchUsedCache = cached != nil
        engine.load(rows)
        sectionCache = nil
        resident = objects
        residentBatches = [:]
        batchOrder = []
        dependents = [:]
        relatedOf = [:]
        updateRelated(plan, links, removed: [])
        if let cacheName, cached == nil { ResultsCache.store(name: cacheName, plan: plan, engine: engine, context: managedObjectContext) }
        if observation == nil {
            // Own saves as a whole (after them); pending batches are not followed yet.
            observation = managedObjectContext.observeChanges { [weak self] changes in
                guard changes.origin != .pending && changes.origin != .thisContext else { return }
                self?.process(changes)
            }
            saveObservation = managedObjectContext.observeDidSave { [weak self] saved in self?.process(saved) }
        }
    }

    /// All fetched objects in order, or nil before `performFetch()`.
    ///
    /// ```swift
    /// controller.fetchedObjects?.count
    /// ```
    /// - Complexity: O(n log n); materialises every object.
    public var fetchedObjects: [Entity]? {
        guard plan != nil else { return nil }
        return (0..<engine.numberOfSections).flatMap { objects(inSection: $0) }
    }

    /// The sections, or nil before `performFetch()`.
    ///
    /// ```swift
    /// controller.sections?.map(\.name)
    /// ```
    /// - Complexity: O(s log s) for s sections after a change, then O(1); objects load on access.
    public var sections: [FetchedResultsSection<Entity>]? {
        guard plan != nil else { return nil }
        if let sectionCache { return sectionCache }
        let built = (0..<engine.numberOfSections).map { sectionInfo(at: $0) }
        sectionCache = built
        return built
    }

    func sectionInfo(at index: Int) -> FetchedResultsSection<Entity> {
        let key = engine.section(at: index)
        return FetchedResultsSection(name: sectionName(key), indexTitle: sectionIndexTitle(forSectionName: sectionName(key)),
                                     numberOfObjects: engine.numberOfRows(inSection: index), index: index, controller: self)
    }

    func sectionName(_ key: SectionKey) -> String { sectionNameKeyPath == nil ? "" : key.name }

    /// The object at an index path; the index path must exist.
    ///
    /// ```swift
    /// let animal = controller.object(at: IndexPath(row: 2, section: 1))
    /// ```
    /// - Complexity: O(log n), plus one batch read when batching.
    public func object(at indexPath: IndexPath) -> Entity {
        precondition(plan != nil, "FetchedResultsController: object(at: \(indexPath)) before performFetch()")
        precondition(indexPath.section >= 0 && indexPath.section < engine.numberOfSections,
                     "FetchedResultsController: no section \(indexPath.section) for \(indexPath); there are \(engine.numberOfSections)")
        precondition(indexPath.row >= 0 && indexPath.row < engine.numberOfRows(inSection: indexPath.section),
                     "FetchedResultsController: no row at \(indexPath); section \(indexPath.section) has \(engine.numberOfRows(inSection: indexPath.section))")
        let id = engine.id(at: indexPath)
        if let object = resident[id] { return object }
        return materialiseBatch(around: indexPath, id: id)
    }

    /// The index path of an object, or nil when it is not in the results.
    ///
    /// ```swift
    /// controller.indexPath(forObject: lion)
    /// ```
    /// - Complexity: O(log n).
    public func indexPath(forObject object: Entity) -> IndexPath? {
        guard plan != nil, object.objectID.entityName == plan?.entityName else { return nil }
        return engine.indexPath(of: object.objectID.rowID)
    }

    /// Runs `body` (which reorders rows by hand and saves) without reporting
    /// the resulting changes: the table already shows them.
    ///
    /// ```swift
    /// controller.withUserDrivenChanges {
    ///     units.move(from: source, to: destination)
    ///     try? context.save()
    /// }
    /// ```
    public func withUserDrivenChanges<R>(_ body: () throws -> R) rethrows -> R {
        suppression += 1
        defer { suppression -= 1 }
        return try body()
    }

    /// Every batch's change set (section names as section identities), as an async sequence.
    ///
    /// ```swift
    /// for await changes in controller.changeSets() { print(changes.objectChanges.count) }
    /// ```
    public func changeSets() -> AsyncStream<ResultsChangeSet<ObjectID, String>> { broadcaster.makeStream() }

    /// Removes a named cache, or every cache when `name` is nil.
    ///
    /// ```swift
    /// FetchedResultsController<Animal>.deleteCache(withName: "Animals")
    /// ```
    public static func deleteCache(withName name: String?) { ResultsCache.delete(name: name) }

    /// Checks the engine; traps with a message on failure.
    ///
    /// ```swift
    /// controller.checkInvariants()
    /// ```
    /// - Complexity: O(n).
    package func checkInvariants() { engine.checkInvariants() }
}
