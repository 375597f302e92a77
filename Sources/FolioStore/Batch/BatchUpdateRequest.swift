import Foundation

/// Sets attributes of every object a predicate matches, straight in the
/// store in one transaction, as Core Data's `NSBatchUpdateRequest` does.
///
/// Unlike Core Data, the values are validated first (type, required, the
/// attribute's rules), unique constraints are enforced (nothing is written
/// when one would break), and the change reaches every context (registered
/// objects are refreshed, unsaved edits kept) and every live
/// `FetchedResultsController`, in this process and in others, as one change.
/// The predicate is evaluated by the store: unsaved changes do not count.
///
///     var request = BatchUpdateRequest<Animal>(predicate: #Predicate { $0.habitat == "" })
///     request.set(\.habitat, to: "Unknown")
///     request.resultType = .count
///     print(try context.execute(request).count)
public struct BatchUpdateRequest<Entity: ManagedObject> {
    /// Which objects; nil updates all of the entity.
    public var predicate: Predicate<Entity>?
    /// Values by attribute name, as Core Data's `propertiesToUpdate`
    /// (checked when the request runs); key paths set with ``set(_:to:)`` join them.
    public var propertiesToUpdate: [String: Any] = [:]
    /// What ``ObjectContext/execute(_:)-(BatchUpdateRequest<Entity>)`` returns besides the count.
    public var resultType: BatchResultType = .statusOnly
    /// Values set by key path; nil for a relationship, refused when the request runs.
    var typed: [(AnyKeyPath, StoreValue?)] = []

    /// A request for the objects `predicate` matches (all of them when nil).
    ///
    ///     BatchUpdateRequest<Planet>(predicate: #Predicate { $0.position > 4 })
    public init(predicate: Predicate<Entity>? = nil) {
        self.predicate = predicate
    }

    /// Sets an attribute to `value` in every matching object.
    ///
    ///     request.set(\.visited, to: true)
    public mutating func set<Value: ManagedValue>(_ keyPath: ReferenceWritableKeyPath<Entity, Value>, to value: Value) {
        guard case .value(let v) = value._slot.storage else {
            // Refused when the request runs, with the property's name.
            return typed.append((keyPath, nil))
        }
        typed.append((keyPath, v))
    }

    /// This request with one more attribute set.
    ///
    ///     try context.execute(BatchUpdateRequest<Planet>().setting(\.visited, to: false))
    public func setting<Value: ManagedValue>(_ keyPath: ReferenceWritableKeyPath<Entity, Value>, to value: Value) -> Self {
        var copy = self
        copy.set(keyPath, to: value)
        return copy
    }

    /// The attributes and their checked values, in declaration order.
    func assignments(for e: EntityDescription) throws -> [(PropertyDescription, StoreValue)] {
        var values: [Int: (PropertyDescription, StoreValue)] = [:]
        for (name, value) in propertiesToUpdate {
            let p = try e.batchAttribute(named: name)
            guard p.isAttribute else {
                throw StoreError.validation(entity: e.name, key: p.name, reason: "a batch update sets attributes only, not relationships")
            }
            values[p.index] = (p, try p.checkedBatchValue(any: value))
        }
        for (keyPath, value) in typed {
            let p = e.batchAttribute(keyPath)
            guard let value, p.isAttribute else {
                throw StoreError.validation(entity: e.name, key: p.name, reason: "a batch update sets attributes only, not relationships")
            }
            values[p.index] = (p, try p.checkedBatchValue(value))
        }
        guard !values.isEmpty else {
            throw StoreError.validation(entity: e.name, key: "propertiesToUpdate", reason: "a batch update needs at least one value to set")
        }
        return values.sorted { $0.key < $1.key }.map(\.value)
    }
}
