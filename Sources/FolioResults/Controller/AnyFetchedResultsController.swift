import FolioStore

/// A fetched results controller whatever entity it fetches, as its
/// delegate receives it (Core Data's `NSFetchedResultsController<NSFetchRequestResult>`):
/// sections, objects as `ManagedObject`, the section index, snapshots and
/// change-set streams. Every ``FetchedResultsController`` is one, so one
/// delegate serves controllers of any entity.
///
/// ```swift
/// func controllerDidChangeContent(_ controller: AnyFetchedResultsController) {
///     print(controller.sections?.map(\.numberOfObjects) ?? [])
/// }
/// ```
///
/// Its isolation is the main actor's, as the view context's and the UI's:
/// reports are delivered on it, and the compiler keeps every use there.
@MainActor
public class AnyFetchedResultsController {
    typealias Engine = ResultsEngine<Int64, RowKey, SectionKey>

    /// The context whose changes the controller follows.
    public let managedObjectContext: ObjectContext
    /// The name of the persistent section cache, if any.
    public let cacheName: String?
    /// Hears the changes (see ``FetchedResultsControllerDelegate``). Held weakly, as in Core Data.
    ///
    /// ```swift
    /// controller.delegate = self
    /// ```
    public weak var delegate: (any FetchedResultsControllerDelegate)? {
        didSet {
            sectionCache = nil  // index titles may come from the delegate
            delegateHearing.judged = false
        }
    }
    /// Called after each batch with the whole result set as identifiers, for
    /// diffable data sources; also after a save gives new objects their
    /// permanent IDs (the rows do not move, their identifiers change).
    ///
    /// ```swift
    /// controller.snapshotHandler = { snapshot in dataSource.apply(results: snapshot) }
    /// ```
    public var snapshotHandler: ((ResultsSnapshot<ObjectID>) -> Void)?
    /// The last error met while following a change (the results were left as
    /// they were); nil after a successful `performFetch()`.
    ///
    /// ```swift
    /// if let error = controller.lastError { print(error); try controller.performFetch() }
    /// ```
    public internal(set) var lastError: (any Error)?

    /// The results. While a relaunch's cached order is shown they are
    /// empty: what needs every row calls ``loadWholeOrder()`` first.
    let engine: Engine
    /// A relaunch's order, drawn from the cache file until it is loaded into the engine.
    let cachedOrder = CachedOrderLoader()
    let entityName: String
    let isSectioned: Bool
    var hasFetched = false
    var suppression = 0
    /// Whether the delegate implements any per-change method (see ``DelegateHearing``).
    var delegateHearing = DelegateHearing()
    /// The sections as last built; dropped whenever the results change.
    var sectionCache: [FetchedResultsSection]?
    let broadcaster = ChangeSetBroadcaster<FetchedResultsChanges>()
    /// Objects kept alive: all of them without batching, recent batches with it.
    var resident = ResidentObjects()
    /// While a batch is delivered: objects its changes name, so that the
    /// per-change callbacks need no lookup for them.
    var handedObjects: HandedObjects?

    /// Objects at hand for a batch: `objects[j]` is that of the engine's
    /// change `j` (`ids[j]`, for as many as there are), and `sources[i]` is
    /// the change that the report's object change `i` comes from.
    struct HandedObjects {
        var ids: [Int64]
        var objects: [ManagedObject]
        var sources: [Int32]

        /// The index in `objects` of the object of the report's change `i`, if handed.
        func index(at i: Int, id: Int64) -> Int? {
            guard i < sources.count else { return nil }
            let j = Int(sources[i])
            return j < ids.count && ids[j] == id ? j : nil
        }
    }

    init(managedObjectContext: ObjectContext, cacheName: String?, entityName: String, sectioned: Bool) {
        self.managedObjectContext = managedObjectContext
        self.cacheName = cacheName
        self.entityName = entityName
        isSectioned = sectioned
        engine = Engine(fixedSection: sectioned ? nil : SectionKey(.null, ascending: true))
    }

    /// Fetches the results afresh and reports nothing (call
    /// `tableView.reloadData()` after it), as in Core Data.
    ///
    /// ```swift
    /// try controller.performFetch()
    /// ```
    public func performFetch() throws {
        preconditionFailure("AnyFetchedResultsController.performFetch() is implemented by FetchedResultsController")
    }

    /// Loads a relaunch's whole cached order into the engine now, when one
    /// is shown; whatever reads or edits every row calls this first.
    func loadWholeOrder() {
        preconditionFailure("AnyFetchedResultsController.loadWholeOrder() is implemented by FetchedResultsController")
    }

    /// Loads the object for a row (batching as the request says).
    func materialise(at indexPath: IndexPath, id: Int64) -> ManagedObject {
        preconditionFailure("AnyFetchedResultsController.materialise(at:id:) is implemented by FetchedResultsController")
    }

    /// The sections, or nil before `performFetch()`; each is valid until the results next change.
    ///
    /// ```swift
    /// controller.sections?.map(\.name)
    /// ```
    /// - Complexity: O(s log s) for s sections after a change, then O(1); objects load on access.
    public var sections: [FetchedResultsSection]? {
        guard hasFetched else { return nil }
        if let sectionCache { return sectionCache }
        let built = (0..<shownSectionCount).map { sectionInfo(at: $0) }
        sectionCache = built
        return built
    }

    /// The object at an index path, as a `ManagedObject`; the index path must exist.
    ///
    /// ```swift
    /// let object = controller.object(at: IndexPath(row: 0, section: 1))
    /// ```
    /// - Complexity: O(log n), plus one batch read when batching.
    @_disfavoredOverload
    public func object(at indexPath: IndexPath) -> ManagedObject {
        precondition(hasFetched, "FetchedResultsController: object(at: \(indexPath)) before performFetch()")
        precondition(
            indexPath.section >= 0 && indexPath.section < shownSectionCount,
            "FetchedResultsController: no section \(indexPath.section) for \(indexPath); there are \(shownSectionCount)")
        precondition(
            indexPath.row >= 0 && indexPath.row < shownRowCount(inSection: indexPath.section),
            "FetchedResultsController: no row at \(indexPath); section \(indexPath.section) has \(shownRowCount(inSection: indexPath.section))"
        )
        let id = shownID(at: indexPath)
        if let object = resident[id] { return object }
        return materialise(at: indexPath, id: id)
    }

    /// The index path of an object, or nil when it is not in the results.
    ///
    /// ```swift
    /// controller.indexPath(forObject: lion)
    /// ```
    /// - Complexity: O(log n).
    public func indexPath(forObject object: ManagedObject) -> IndexPath? {
        guard hasFetched, object.objectID.entityName == entityName else { return nil }
        loadWholeOrder()
        return engine.indexPath(of: engineID(object.objectID))
    }

    /// Runs `body` (which reorders rows by hand, and usually saves) without
    /// reporting the resulting changes: the table already shows them. The
    /// context's changes are processed before the scope ends, so that what
    /// `body` changed is absorbed here and never reported later.
    ///
    /// ```swift
    /// controller.withUserDrivenChanges {
    ///     units.move(from: source, to: destination)
    ///     try? context.save()
    /// }
    /// ```
    public func withUserDrivenChanges<R>(_ body: () throws -> R) rethrows -> R {
        suppression += 1
        defer {
            managedObjectContext.processPendingChanges()
            suppression -= 1
        }
        return try body()
    }

    /// Every batch's change set, as an async sequence (sections identified by their keys).
    ///
    /// ```swift
    /// for await changes in controller.changeSets() { print(changes.objectChanges.count) }
    /// ```
    public func changeSets() -> AsyncStream<FetchedResultsChanges> { broadcaster.makeStream() }

    /// The whole result set as identifiers.
    ///
    /// ```swift
    /// let snapshot = controller.snapshot()
    /// ```
    /// - Complexity: O(n).
    public func snapshot(reconfiguring reconfigured: [ObjectID] = []) -> ResultsSnapshot<ObjectID> {
        loadWholeOrder()
        let sections = engine.snapshot()
        return ResultsSnapshot(
            sectionIdentifiers: sections.map { sectionIdentifier($0.section) },
            itemIdentifiers: sections.map { $0.ids.map(objectID) },
            reconfiguredItemIdentifiers: reconfigured)
    }

    /// Removes a named cache, or every cache when `name` is nil (Core Data's
    /// `NSFetchedResultsController.deleteCache(withName:)`).
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
    package func checkInvariants() {
        loadWholeOrder()
        engine.checkInvariants()
    }

    // MARK: Identities

    /// The engine's identifier for an object. Temporary (unsaved) objects
    /// sort after every saved one with an equal key, in creation order, as
    /// the store orders them and as their permanent IDs will.
    /// Nonisolated (plain arithmetic), so closures over many rows call it without an isolation check.
    nonisolated func engineID(_ id: ObjectID) -> Int64 { id.rowID >= 0 ? id.rowID : Self.temporaryBase - id.rowID }

    /// The store's row ID (negative for a temporary object) for an engine identifier.
    nonisolated func storeRowID(_ key: Int64) -> Int64 { Self.storeRowID(key) }
    nonisolated static func storeRowID(_ key: Int64) -> Int64 { key >= temporaryBase ? temporaryBase - key : key }

    /// The object ID for an engine identifier.
    func objectID(_ key: Int64) -> ObjectID {
        ObjectID(entityName: entityName, rowID: Self.storeRowID(key))
    }

    /// Above every row ID SQLite assigns in practice; temporary IDs map past it.
    nonisolated static var temporaryBase: Int64 { 1 << 62 }

    func sectionName(_ key: SectionKey) -> String { isSectioned ? key.name : "" }

    func sectionIdentifier(_ key: SectionKey) -> SectionIdentifier {
        isSectioned && key.value.isNull ? .nilKey : SectionIdentifier(sectionName(key))
    }

    func sectionInfo(at index: Int) -> FetchedResultsSection {
        let key = shownSection(at: index)
        return FetchedResultsSection(
            identifier: sectionIdentifier(key), indexTitle: sectionIndexTitle(forSectionName: sectionName(key)),
            numberOfObjects: shownRowCount(inSection: index), index: index, controller: self)
    }

    /// The objects of a section in order, as `ManagedObject`s.
    func anyObjects(inSection index: Int) -> [ManagedObject] {
        (0..<shownRowCount(inSection: index)).map { object(at: IndexPath(row: $0, section: index)) }
    }

    func forget(_ id: Int64) { resident[id] = nil }
}
