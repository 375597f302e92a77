/// One object's attribute values, filled in by a ``BatchInsertRequest``'s
/// handler (Core Data's `managedObjectHandler`, typed by key path). Each
/// object starts from the attributes' default values.
///
///     var next = 0
///     let request = BatchInsertRequest<Planet> { (values: inout BatchInsertValues<Planet>) in
///         guard next < names.count else { return true }   // done: these values are not inserted
///         values[\.name] = names[next]
///         values[\.position] = next
///         next += 1
///         return false
///     }
public struct BatchInsertValues<Entity: ManagedObject> {
    let entity: EntityDescription
    var values: [StoreValue]
    /// A value this batch cannot set, thrown by `execute` before anything is written.
    var misuse: StoreError?
    /// The properties of the key paths set so far. A handler's key path
    /// literals are the same objects for every object it fills, so after
    /// the first each is found by identity instead of hashed.
    private var resolved: [(keyPath: AnyKeyPath, property: PropertyDescription)] = []

    init(entity: EntityDescription) {
        self.entity = entity
        values = BatchRows.defaults(of: entity)
    }

    /// The value of an attribute (its default until set).
    public subscript<Value: ManagedValue>(_ keyPath: ReferenceWritableKeyPath<Entity, Value>) -> Value {
        get {
            let p = entity.batchAttribute(keyPath)
            precondition(p.isAttribute, "\(entity.name).\(p.name): read a to-one's ID with values[id: \\.\(p.name)]")
            return Value._decode(ManagedSlot(storage: .value(values[p.slot])), in: nil)
        }
        set {
            let p = property(keyPath)
            switch newValue._slot.storage {
            case .value(let v) where p.isAttribute: values[p.slot] = v
            case .one(let id): set(p, id)
            default: misuse = StoreError.validation(entity: entity.name, key: p.name, reason: "a batch insert cannot set this relationship")
            }
        }
    }

    /// A to-one by the related object's ID (nil: none), which need not be
    /// loaded in any context: Core Data's batch insert has no way to do this.
    ///
    ///     values[id: \.category] = lighting.objectID
    public subscript<Target: ManagedObject>(id keyPath: ReferenceWritableKeyPath<Entity, Target?>) -> ObjectID? {
        get {
            let p = entity.batchAttribute(keyPath)
            guard case .integer(let row) = values[BatchRows.offset(of: p, in: entity)] else { return nil }
            return ObjectID(entityName: p.target.name, rowID: row)
        }
        set { set(property(keyPath), newValue) }
    }

    private mutating func property(_ keyPath: AnyKeyPath) -> PropertyDescription {
        for known in resolved where known.keyPath === keyPath { return known.property }
        let p = entity.batchAttribute(keyPath)
        // A few: key paths made anew for each object are looked up as they come.
        if resolved.count < 32 { resolved.append((keyPath, p)) }
        return p
    }

    private mutating func set(_ p: PropertyDescription, _ id: ObjectID?) {
        do { values[BatchRows.offset(of: p, in: entity)] = try p.checkedBatchRelation(id) } catch {
            misuse = misuse ?? error
        }
    }

    /// Back to the default values, for the next object.
    mutating func reset(to defaults: [StoreValue]) {
        for i in values.indices { values[i] = defaults[i] }
    }
}
