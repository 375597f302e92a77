import Foundation

// Values handed to batch requests, checked as a save checks an object's
// attributes: the type the attribute declares, a value where one is
// required, and the attribute's validation rules. Batch requests write
// attributes only; relationships are refused with a clear error.
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

    /// A value of any attribute type (or `NSNull`, or an optional) as stored, checked.
    func checkedBatchValue(any value: Any) throws -> StoreValue {
        if value is NSNull { return try checkedBatchValue(.null) }
        if let managed = value as? any ManagedValue, case .value(let v) = managed._slot.storage { return try checkedBatchValue(v) }
        if value is any ManagedValue {
            throw StoreError.validation(entity: entity.name, key: name, reason: "batch requests set attributes only, not relationships")
        }
        throw StoreError.validation(entity: entity.name, key: name,
                                    reason: "expected a value of type \(storeType.rawValue), found a \(type(of: value))")
    }
}

extension EntityDescription {
    /// The attribute called `name`, or an unknown-key error naming it.
    func batchAttribute(named name: String) throws -> PropertyDescription {
        guard let p = byName[name] else { throw StoreError.unknownKeyPath(entity: self.name, keyPath: name) }
        return p
    }

    /// The attribute behind a typed key path (declared, or a programmer error).
    func batchAttribute(_ keyPath: AnyKeyPath) -> PropertyDescription {
        let p = property(keyPath)
        precondition(p.isAttribute, "\(name).\(p.name): batch requests set attributes only, not relationships")
        return p
    }

    /// The attributes' default values, in declaration order.
    var batchDefaults: [StoreValue] { defaults }
}
