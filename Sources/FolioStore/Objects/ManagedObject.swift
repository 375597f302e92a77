/// The base class of every entity. Subclass it, mark stored properties with
/// `@Managed`, and describe them in `entity`. Objects live in one
/// ``ObjectContext``; there is one instance per row per context.
///
///     let mars = Planet(context: context)
///     mars.name = "Mars"
///     try context.save()
///
/// Equality and hashing are by identity (one instance per row per context).
open class ManagedObject: Hashable, ManagedValue {
    /// The entity description of this class. Every subclass overrides it.
    open class var entity: EntityDescription {
        preconditionFailure("\(self) must override `class var entity`")
    }

    // The fields every change and every batch reads come first, together: in a
    // big save each object is a cache miss, and these share one or two lines.
    // The flags and keys below skip the runtime's exclusivity check (a call
    // on each access, about a millisecond of a 10,000-object batch): only
    // the owning context touches them, on its own queue (`requireConfinement`),
    // and none is ever passed inout while another access is open.
    /// The object's ID: temporary until its first save, then permanent.
    public internal(set) final var objectID: ObjectID
    // Unowned: the context clears it before the object can outlive it (its deinit,
    // rollback, saved deletes, merges); owning it would be a cycle, and weak costs a lookup per access.
    // Unmanaged rather than unowned(unsafe), so that `belongs(to:)` compares without a retain.
    private final var contextReference: Unmanaged<ObjectContext>?
    /// Whether the object's values are not loaded yet (Core Data's `isFault`):
    /// reading any property loads them.
    ///
    ///     if animal.isFault { print("not loaded yet") }
    @exclusivity(unchecked) public internal(set) final var isFault = true
    /// A merge found keys changed both here and in the store, so the object
    /// kept its values and ``version``: a rollback or refresh reads the row again.
    @exclusivity(unchecked) final var isBehindStore = false
    @exclusivity(unchecked) final var isInsertedFlag = false
    @exclusivity(unchecked) final var isDeletedFlag = false
    @exclusivity(unchecked) final var isTouched = false
    @exclusivity(unchecked) final var isListedAsTouched = false
    /// Whether the context's observers were last told that the object exists
    /// (stored objects from the start; new ones once a batch reported them).
    @exclusivity(unchecked) final var reportedPresent = true
    /// Listed among the context's changes not yet processed into a batch.
    @exclusivity(unchecked) final var isUnprocessed = false
    /// Another context or process deleted the object and this context merged
    /// that: it stays with its context, so a write to it is kept and the next
    /// save names it (``StoreError/deletedElsewhere(entity:id:keys:)``).
    final var isDeletedElsewhere = false
    /// Why the object left its context, for the message of a use after that.
    final var detachment = Detachment.attached
    /// The properties changed since the last processed batch.
    @exclusivity(unchecked) final var dirtyKeys = DirtyKeys()
    let meta: EntityDescription
    final var attrs: [StoreValue] = []
    final var ones: [ObjectID?] = []
    /// Each to-many's members as far as the context knows them; nil until needed.
    final var manys: [MemberList?] = []
    /// Values as last saved or fetched; kept from the first change until save or rollback.
    final var committed: CommittedValues?
    /// The stored row's ``RowVersion`` when its values were read, saved or
    /// merged (Core Data's snapshot); a save writes the row only at this version.
    final var version: Int64 = 0

    final var managedContext: ObjectContext? {
        get { contextReference?.takeUnretainedValue() }
        set { contextReference = newValue.map { Unmanaged.passUnretained($0) } }
    }

    /// Whether the object is registered in `context`. It retains neither: the
    /// context is weakly referenced elsewhere, so each of its retains takes
    /// the slow path, and a save asks this of every changed object.
    @inline(__always) final func belongs(to context: ObjectContext) -> Bool {
        contextReference?.toOpaque() == Unmanaged.passUnretained(context).toOpaque()
    }

    /// Set on the stand-ins that resolve key paths: their properties record reads instead.
    final var probe: KeyPathProbe?

    /// Creates a new object and inserts it into `context`; it is saved by the next `save()`.
    ///
    ///     let zoo = Zoo(context: context)
    public required init(context: ObjectContext) {
        if let (entity, probe) = context.probeBeingMade {
            context.probeBeingMade = nil
            meta = entity
            objectID = ObjectID(entityName: entity.name, rowID: 0)
            self.probe = probe
            isFault = false
            return
        }
        contextReference = Unmanaged.passUnretained(context)
        if let loaded = context.takeMaterialising() {
            // The entity comes with the row: no lookup by class per fetched object.
            meta = loaded.entity
            objectID = loaded.id
            if let row = loaded.row {
                attrs = row.attributes
                ones = row.toOnes
                version = row.version
                isFault = false
            }
            manys = Array(repeating: nil, count: meta.toManys.count)
            context.register(self)
        } else {
            let meta = context.schema.entity(for: Self.self)
            self.meta = meta
            objectID = .temporary(meta.name)
            attrs = meta.defaults
            ones = Array(repeating: nil, count: meta.toOnes.count)
            manys = Array(repeating: nil, count: meta.toManys.count)
            isFault = false
            reportedPresent = false
            context.register(self)
            context.didInsert(self)
        }
    }

    deinit { if !isDeletedElsewhere { managedContext?.unregister(objectID, entity: meta.index) } }

    /// Leaves the context for `reason`; any later use names it.
    final func detach(_ reason: Detachment) {
        managedContext = nil
        detachment = reason
    }

    /// The context the object lives in; nil once that context is gone, and
    /// once it merged the object's deletion by another context or process.
    public var context: ObjectContext? { isDeletedElsewhere ? nil : managedContext }
    /// Whether the object was inserted and not yet saved.
    public var isInserted: Bool { isInsertedFlag }
    /// Whether the object was deleted and the deletion not yet saved.
    public var isDeleted: Bool { isDeletedFlag }
    /// Whether the object has unsaved changes (inserted, deleted, or changed values).
    public var hasChanges: Bool { isInsertedFlag || isDeletedFlag || hasChangedValues }

    /// Identity.
    public static func == (a: ManagedObject, b: ManagedObject) -> Bool { a === b }
    /// Identity hash.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    /// A to-one relationship to this class.
    public class var _managedKind: ManagedValueKind { ManagedValueKind(storage: .toOne(self), optional: false) }
    /// The object for the slot's ID in `context`.
    public class func _decode(_ slot: ManagedSlot, in context: ObjectContext?) -> Self {
        guard case .one(let id?) = slot.storage, let context else {
            preconditionFailure("a required relationship to \(self) is not set; set it before reading it")
        }
        return context.object(with: id) as! Self
    }
    /// This object's ID.
    public var _slot: ManagedSlot { ManagedSlot(storage: .one(objectID)) }
    /// No object.
    public class var _nilSlot: ManagedSlot { ManagedSlot(storage: .one(nil)) }

    func liveContext(for property: PropertyDescription) -> ObjectContext {
        guard let c = managedContext else {
            preconditionFailure("\(objectID).\(property.name): \(detachment.reason)")
        }
        return c
    }

    /// The current slot of a property, firing the fault or loading a to-many as needed.
    func slot(_ p: PropertyDescription) -> ManagedSlot {
        switch p.kind {
        case .attribute:
            if isFault { liveContext(for: p).fulfill(self) }
            return ManagedSlot(storage: .value(attrs[p.slot]))
        case .toOne:
            if isFault { liveContext(for: p).fulfill(self) }
            return ManagedSlot(storage: .one(ones[p.slot]))
        case .toMany:
            return ManagedSlot(storage: .many(liveContext(for: p).members(self, p)))
        }
    }
}

/// Why an object is no longer in a context.
enum Detachment: UInt8 {
    case attached
    case contextGone
    case deletionSaved
    case insertionDiscarded

    /// The cause, as a use of the object after it names it.
    var reason: String {
        switch self {
        case .attached: "the object is in a context"
        case .contextGone: "the object's context no longer exists; keep the context (or its container) while you use its objects"
        case .deletionSaved: "the object was deleted and the deletion saved; it is in no context now"
        case .insertionDiscarded: "the object's insertion was undone (rolled back, or deleted before it was saved); it is in no context now"
        }
    }
}

/// An object's attribute and to-one values before its first unsaved change
/// (to-manys keep their changes in their ``MemberList``).
struct CommittedValues {
    var attrs: [StoreValue]
    var ones: [ObjectID?]
}

/// Properties changed since a context's last processed batch: a bit per
/// property (by declaration index), so marking a change allocates nothing;
/// names past the 64th in a set.
struct DirtyKeys {
    private var bits: UInt64 = 0
    private var others: Set<String> = []

    var isEmpty: Bool { bits == 0 && others.isEmpty }

    mutating func insert(_ p: PropertyDescription) {
        if p.index < 64 { bits |= 1 << UInt64(p.index) } else { others.insert(p.name) }
    }

    /// The names, of `entity`'s properties.
    func names(in entity: EntityDescription) -> Set<String> {
        var names = others
        for p in entity.properties.prefix(64) where bits & (1 << UInt64(p.index)) != 0 { names.insert(p.name) }
        return names
    }

    /// Clears every key; the empty set is left alone when already empty.
    mutating func removeAll() {
        bits = 0
        if !others.isEmpty { others = [] }
    }

    /// The names of a batch's dirty keys, made once per entity and set of
    /// keys: a big save changes many objects in the same few keys.
    struct NameCache {
        private var made: [(entity: ObjectIdentifier, bits: UInt64, names: Set<String>)] = []

        mutating func names(of keys: DirtyKeys, in entity: EntityDescription) -> Set<String> {
            guard keys.others.isEmpty else { return keys.names(in: entity) }
            let id = ObjectIdentifier(entity)
            for entry in made where entry.bits == keys.bits && entry.entity == id { return entry.names }
            let names = keys.names(in: entity)
            // A few combinations cover a batch; past them, no search grows long.
            if made.count < 16 { made.append((id, keys.bits, names)) }
            return names
        }
    }
}
