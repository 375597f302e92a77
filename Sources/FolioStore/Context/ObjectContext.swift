import Dispatch
import Foundation

/// A scratchpad of objects over the store: fetch, insert, change, delete,
/// then `save()` writes everything in one transaction. One instance per row
/// (uniquing); changes are tracked per property; undo, rollback and refresh
/// work as in Core Data.
///
/// A context is confined to one isolation domain, and the types say which:
/// it is not `Sendable`, so the container's `viewContext` stays on the main
/// actor, and a ``BackgroundContext`` is used inside its `perform` or
/// `performAndWait` (see ``perform(_:)``).
///
///     let context = container.viewContext
///     let planets = try context.fetch(FetchRequest<Planet>(sortBy: [SortDescriptor(\.position)]))
///     planets.first?.name = "Mercury"
///     try context.save()
///
/// ## What observers hear
///
/// ``observeChanges(_:)`` delivers, in order, one ``ChangeSet`` per batch
/// the context sees, so that an observer holding a copy of some results (a
/// fetched results controller) can follow the context exactly:
///
/// - `.pending`: this context's unsaved changes, processed in batches as
///   Core Data processes them — at ``processPendingChanges()``, at the end of
///   each main-actor turn in which the view context changed (one batch per
///   turn), at the end of each `perform`, before `save()` (what was not yet
///   processed) and at ``rollback()``. A batch says what changed since the
///   previous one: `inserted` objects appeared (new objects under their
///   temporary IDs, or deleted ones brought back by undo or rollback),
///   `deleted` objects disappeared (deleted, or new ones undone or rolled
///   back, under their temporary IDs), `updated` objects stayed and changed in
///   the listed keys (attributes and relationships, on either side of one).
///   An object inserted and deleted between two batches is not mentioned.
/// - `.thisContext`: this context saved. Every saved change was reported in
///   an earlier `.pending` batch, so the set is empty but for
///   ``ChangeSet/permanentIDs``: the temporary ID each new object had and the
///   permanent ID it has now. (``observeDidSave(_:)`` hears everything saved.)
/// - `.otherContext`, `.otherProcess`: another context's or process's save,
///   merged into this context. Unprocessed changes are processed (heard as a
///   `.pending` batch) before the merge is applied.
///
/// Fetches include unsaved changes, so after any batch
/// a fetch shows the state that batch ends in.
public class ObjectContext {
    /// Where the context works and hears other contexts' saves: the main
    /// actor, its own serial queue, or only its maker's code (key path
    /// probes, a new store's seed), which hears nothing.
    enum Delivery { case main, queue(DispatchQueue), caller }

    /// A background context's queue: its work runs there, and nowhere else.
    let queue: DispatchQueue?

    let coordinator: ContextCoordinator
    /// The store's schema.
    public var schema: Schema { coordinator.schema }

    /// Whether the store answered the last time this container looked for
    /// others' saves: false while a database server cannot be reached (saves
    /// then fail with ``StoreError/offline(store:message:)``); it turns true
    /// again by itself when the server is back, and what others saved
    /// meanwhile arrives. Always true for a file.
    ///
    ///     statusLine = context.isStoreReachable ? nil : "offline"
    public var isStoreReachable: Bool { coordinator.shared.isReachable }

    /// Whether the store is on a database server (it can then be unreachable for a while).
    package var isOnServer: Bool { coordinator.shared.isOnServer }
    /// A name for messages and debugging.
    public var name: String?
    /// How ``save()`` resolves conflicts with other saves; `.error` by default.
    ///
    ///     context.mergePolicy = .mergeByPropertyStoreTrump
    public var mergePolicy: MergePolicy = .error
    /// Records changes for ``undo()`` and ``redo()``; nil turns undo off.
    public var undoManager: UndoStack? = UndoStack()

    var registry: ObjectRegistry
    /// Objects with unsaved changes (inserted, deleted or changed), kept alive until saved;
    /// entries whose `isTouched` was cleared are skipped and dropped at the next save or rollback.
    var touchedList: [ManagedObject] = []
    /// Objects other saves deleted that are still in use here, and what was written to them since.
    var deletedElsewhere = DeletedElsewhere()
    /// The next object initialised with this context is this stored row's (a fault without `row`).
    var materialising: (entity: EntityDescription, id: ObjectID, row: StoredRow?)?
    /// The store connection of the write transaction `performWrite` runs, if any.
    var writeTransaction: StoreBackend?
    /// The next object initialised with this context is a key path probe of this entity.
    var probeBeingMade: (EntityDescription, KeyPathProbe)?
    var observers: [Int: (ChangeSet) -> Void] = [:]
    var willSaveObservers: [Int: (ChangeSet) -> Void] = [:]
    var didSaveObservers: [Int: (ChangeSet) -> Void] = [:]
    var nextObserver = 0
    var inbox = 0
    /// Objects changed since the last processed batch, each once (kept alive until processed).
    var unprocessed: [ManagedObject] = []
    /// The view context's handle for the main actor; its batches are processed at the end of each turn.
    var mainBox: MainContextBox?
    var processingScheduled = false
    /// Change sets handed to the context that it has not merged yet.
    let waitingMerges = WaitingMerges()
    /// The stored rows heard with the change set being merged, and the
    /// objects loaded from them meanwhile (see ``merge(_:heard:)``).
    var heardRows: HeardRows?
    var heardObjects: [ManagedObject] = []
    /// When this context's latest use of the store ended (uptime
    /// nanoseconds): heard rows read before then may be older than what it
    /// read, and are not used (see ``heardRow(_:)``).
    var lastStoreUse: UInt64 = 0
    /// Rows read by ID since then, with when each read ended: heard rows
    /// read before then are not used for those rows only (see ``withStore(readingRows:_:)``).
    var rowsReadAt: [ObjectID: UInt64] = [:]

    init(coordinator shared: StoreCoordinator, delivery: Delivery) {
        if case .main = delivery {
            coordinator = ContextCoordinator(shared: shared, forMainActor: true)
        } else {
            coordinator = ContextCoordinator(shared: shared, forMainActor: false)
        }
        registry = ObjectRegistry(schema: coordinator.schema)
        if case .queue(let q) = delivery { queue = q } else { queue = nil }
        let deliver: @Sendable (ChangeSet, HeardRows?) -> Void
        switch delivery {
        case .main:
            let box = MainContextBox(self)
            mainBox = box
            // The box is main-actor isolated, so the compiler checks that the merge runs there.
            let waiting = waitingMerges
            deliver = { changes, heard in
                guard waiting.add(changes, heard) else { return }
                DispatchQueue.main.async { box.context?.mergeWaiting() }
            }
        case .queue(let q):
            let box = ContextBox(self)
            q.setSpecific(key: ObjectContext.queueKey, value: ObjectIdentifier(self))
            let waiting = waitingMerges
            deliver = { changes, heard in
                guard waiting.add(changes, heard) else { return }
                q.async { box.context?.mergeWaiting() }
            }
        case .caller:
            deliver = { _, _ in }
        }
        inbox = coordinator.addInbox(deliver)
    }

    deinit {
        coordinator.removeInbox(inbox)
        for o in registry.all { o.detach(.contextGone) }
        for o in deletedElsewhere.objects { o.detach(.contextGone) }
    }

    /// Whether any object has unsaved changes.
    ///
    ///     if context.hasChanges { try context.save() }
    public var hasChanges: Bool { deletedElsewhere.hasWrites || touchedList.contains { $0.isTouched && $0.hasChanges } }

    /// Objects with unsaved changes, each once.
    var touched: [ManagedObject] { touchedList.filter(\.isTouched) }

    /// Unsaved inserted objects.
    public var insertedObjects: Set<ManagedObject> { Set(touched.filter(\.isInsertedFlag)) }
    /// Unsaved deleted objects.
    public var deletedObjects: Set<ManagedObject> { Set(touched.filter { $0.isDeletedFlag && !$0.isInsertedFlag }) }
    /// Objects with unsaved value changes (not inserted or deleted).
    public var updatedObjects: Set<ManagedObject> {
        Set(touched.filter { !$0.isInsertedFlag && !$0.isDeletedFlag && !$0.changedKeys.isEmpty })
    }
    /// Every object the context currently holds.
    public var registeredObjects: [ManagedObject] { registry.all }

    // MARK: Uniquing

    /// The object for an ID, as a fault if it is not loaded yet. The row is
    /// read on first access; use ``existingObject(with:)`` to check it exists.
    ///
    ///     let planet = context.object(with: id) as! Planet
    public func object(with id: ObjectID) -> ManagedObject {
        if let hit = registry[id] { return hit }
        guard let entity = schema.entity(named: id.entityName) else {
            preconditionFailure("\(id): \(id.entityName) is not an entity of this store")
        }
        materialising = (entity, id, nil)
        return entity.objectType.init(context: self)
    }

    /// The object for an ID, loaded; throws ``StoreError/objectDeleted(entity:id:)`` if its row is gone.
    ///
    ///     let planet = try context.existingObject(with: id) as! Planet
    public func existingObject(with id: ObjectID) throws -> ManagedObject {
        let object = self.object(with: id)
        if object.isFault {
            let rows = try withStore(readingRows: [id]) { try $0.rows(of: object.meta, ids: [id.rowID]) }
            guard let row = rows[id.rowID] else { throw StoreError.objectDeleted(entity: id.entityName, id: id.rowID) }
            fill(object, row)
        }
        if object.isDeletedFlag && !object.isInsertedFlag { throw StoreError.objectDeleted(entity: id.entityName, id: id.rowID) }
        return object
    }

    /// Typed form of ``object(with:)``.
    ///
    ///     let planet: Planet = context.object(with: id)
    public func object<T: ManagedObject>(with id: ObjectID, as type: T.Type = T.self) -> T {
        guard let t = object(with: id) as? T else { preconditionFailure("\(id) is not a \(T.self)") }
        return t
    }

    func takeMaterialising() -> (entity: EntityDescription, id: ObjectID, row: StoredRow?)? {
        defer { materialising = nil }
        return materialising
    }

    func register(_ object: ManagedObject) { registry.insert(object) }

    func unregister(_ id: ObjectID) { registry.remove(id) }

    func unregister(_ id: ObjectID, entity: Int) { registry.remove(id, entity: entity) }

    /// The object for a fetched row: the registered one (filled in if it was a fault) or a new one.
    func materialise(_ entity: EntityDescription, _ rowID: Int64, _ row: StoredRow) -> ManagedObject {
        let id = ObjectID(entityName: entity.name, rowID: rowID)
        if let o = registry.object(entity, rowID) {
            if o.isFault { fill(o, row) }
            return o
        }
        materialising = (entity, id, row)
        return entity.objectType.init(context: self)
    }

    func fill(_ object: ManagedObject, _ row: StoredRow) {
        object.attrs = row.attributes
        object.ones = row.toOnes
        object.version = row.version
        object.isBehindStore = false
        object.isFault = false
    }

    /// Loads a fault's row. A row deleted by another process whose change set
    /// has not arrived yet reads as defaults (or empty values), never a crash
    /// in a reader that was merely a few milliseconds early. A store that
    /// cannot be read (a server away) gives the same placeholders for now,
    /// and the object stays a fault, so a read after the server is back loads
    /// the row; while the store is known unreachable no read is tried (a
    /// screen keeps drawing instead of waiting on each row).
    func fulfill(_ object: ManagedObject) {
        guard object.isFault else { return }
        let id = object.objectID
        let placeholder = StoredRow(
            attributes: object.meta.attributes.map { $0.defaultValue ?? ($0.isOptional ? .null : $0.storeType.emptyValue) },
            toOnes: Array(repeating: nil, count: object.meta.toOnes.count))
        guard isStoreReachable, let rows = try? withStore(readingRows: [id], { try $0.rows(of: object.meta, ids: [id.rowID]) }) else {
            object.attrs = placeholder.attributes
            object.ones = placeholder.toOnes
            return
        }
        fill(object, rows[id.rowID] ?? placeholder)
    }

    func touch(_ object: ManagedObject) {
        if !object.isTouched {
            object.isTouched = true
            if !object.isListedAsTouched {
                object.isListedAsTouched = true
                touchedList.append(object)
            }
        }
    }

    func untouch(_ object: ManagedObject) {
        object.isTouched = false
    }

    /// Empties the touched list after a save or rollback.
    func clearTouched() {
        for o in touchedList {
            o.isTouched = false
            o.isListedAsTouched = false
        }
        touchedList.removeAll()
    }
}

/// A weak, sendable handle on a context for deliveries on its own queue.
final class ContextBox: @unchecked Sendable {  // `context` is read only on the context's own queue or actor
    weak var context: ObjectContext?
    init(_ context: ObjectContext) { self.context = context }
}
