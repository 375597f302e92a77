import Foundation

// Values handed to batch requests, checked as a save checks an object's
// attributes: the type the attribute declares, a value where one is
// required, and the attribute's validation rules. A batch insert also
// sets to-one relationships (by the related object or its ID) whose
// inverse is an unordered to-many; anything else is a clear error.
extension PropertyDescription {
    /// `value` checked for this attribute (an integer for a real attribute
    /// is widened, as SQLite's REAL affinity would); throws a validation error.
    func checkedBatchValue(_ value: StoreValue) throws -> StoreValue {
        let owner = entity.name
        guard isAttribute else {
            throw StoreError.validation(entity: owner, key: name, reason: "batch requests set attributes only, not relationships")
        }
        var v = value
        switch (storeType, value) {
        case (_, .null):
            if !isOptional { throw StoreError.validation(entity: owner, key: name, reason: "a value is required") }
            return .null
        case (.integer, .integer), (.real, .real), (.text, .text), (.blob, .blob): break
        case (.real, .integer(let i)): v = .real(Double(i))
        default:
            throw StoreError.validation(entity: owner, key: name, reason: "expected a value of type \(storeType.rawValue), found \(value)")
        }
        if hasRules, let reason = validate(v) { throw StoreError.validation(entity: owner, key: name, reason: reason) }
        return v
    }

    /// A value of any attribute type (or `NSNull`, or an optional) as stored,
    /// checked; for a to-one a batch insert sets, the related object, its
    /// ``ObjectID`` or `NSNull`.
    func checkedBatchValue(any value: Any) throws -> StoreValue {
        if isToOne {
            if value is NSNull { return try checkedBatchRelation(nil) }
            if let id = value as? ObjectID { return try checkedBatchRelation(id) }
            if let object = value as? ManagedObject { return try checkedBatchRelation(object.objectID) }
            if let managed = value as? any ManagedValue, case .one(let id) = managed._slot.storage { return try checkedBatchRelation(id) }
            throw StoreError.validation(
                entity: entity.name, key: name,
                reason: "expected a \(target.name) or its object ID, found a \(type(of: value))")
        }
        if value is NSNull { return try checkedBatchValue(.null) }
        if let managed = value as? any ManagedValue, case .value(let v) = managed._slot.storage { return try checkedBatchValue(v) }
        if value is any ManagedValue {
            throw StoreError.validation(entity: entity.name, key: name, reason: "batch requests set attributes only, not relationships")
        }
        throw StoreError.validation(
            entity: entity.name, key: name,
            reason: "expected a value of type \(storeType.rawValue), found a \(type(of: value))")
    }

    /// A to-one a batch insert sets: the related row's ID, or NULL. The
    /// related object must be saved (its row is checked when the batch runs).
    func checkedBatchRelation(_ id: ObjectID?) throws(StoreError) -> StoreValue {
        guard isToOne, !inverse.isToOne, !inverse.isOrdered else {
            throw StoreError.validation(
                entity: entity.name, key: name,
                reason: isToOne
                    ? "a batch insert sets a to-one only when its inverse is an unordered to-many"
                    : "batch requests set attributes and to-ones only, not to-many relationships")
        }
        guard let id else {
            if !isOptional { throw StoreError.validation(entity: entity.name, key: name, reason: "a related object is required") }
            return .null
        }
        guard id.entityName == target.name else {
            throw StoreError.validation(entity: entity.name, key: name, reason: "expected a \(target.name), found \(id)")
        }
        guard !id.isTemporary else {
            throw StoreError.validation(
                entity: entity.name, key: name, reason: "the related \(target.name) is not saved yet; save it first")
        }
        return .integer(id.rowID)
    }
}

extension EntityDescription {
    /// The property called `name`, or an unknown-key error naming it.
    func batchAttribute(named name: String) throws -> PropertyDescription {
        guard let p = byName[name] else { throw StoreError.unknownKeyPath(entity: self.name, keyPath: name) }
        return p
    }

    /// The property behind a typed key path (a declared one, or a programmer error).
    func batchAttribute(_ keyPath: AnyKeyPath) -> PropertyDescription { property(keyPath) }

    /// The attributes' default values, in declaration order.
    var batchDefaults: [StoreValue] { defaults }
}
