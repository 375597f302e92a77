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

    init(entity: EntityDescription) {
        self.entity = entity
        values = entity.batchDefaults
    }

    /// The value of an attribute (its default until set).
    public subscript<Value: ManagedValue>(_ keyPath: ReferenceWritableKeyPath<Entity, Value>) -> Value {
        get { Value._decode(ManagedSlot(storage: .value(values[entity.batchAttribute(keyPath).slot])), in: nil) }
        set {
            let p = entity.batchAttribute(keyPath)
            guard case .value(let v) = newValue._slot.storage else { preconditionFailure("\(entity.name).\(p.name) is not an attribute") }
            values[p.slot] = v
        }
    }

    /// Back to the default values, for the next object.
    mutating func reset(to defaults: [StoreValue]) {
        for i in values.indices { values[i] = defaults[i] }
    }
}
