extension ManagedObject {
    /// Names of the properties whose values differ from the committed ones.
    ///
    ///     planet.name = "Terra"
    ///     planet.changedKeys   // ["name"]
    ///
    /// - Complexity: O(p) in the number of properties (an ordered to-many
    ///   whose order changed compares its members).
    public var changedKeys: Set<String> {
        var keys: Set<String> = []
        if let committed, !isFault {
            for p in meta.attributes where attrs[p.slot] != committed.attrs[p.slot] { keys.insert(p.name) }
            for p in meta.toOnes where ones[p.slot] != committed.ones[p.slot] { keys.insert(p.name) }
        }
        for p in meta.toManys where manys[p.slot]?.hasChanges == true { keys.insert(p.name) }
        return keys
    }

    /// Whether any property differs from its committed value: ``changedKeys``
    /// without building the set, for the checks a save makes per object.
    var hasChangedValues: Bool {
        if let committed, !isFault {
            for p in meta.attributes where attrs[p.slot] != committed.attrs[p.slot] { return true }
            for p in meta.toOnes where ones[p.slot] != committed.ones[p.slot] { return true }
        }
        for p in meta.toManys where manys[p.slot]?.hasChanges == true { return true }
        return false
    }

    /// The changed attributes' new values, by name (relationships as row IDs).
    ///
    ///     planet.changedValues()["name"]   // .text("Terra")
    public func changedValues() -> [String: StoreValue] {
        var result: [String: StoreValue] = [:]
        for key in changedKeys {
            guard let p = meta.byName[key] else { continue }
            switch p.kind {
            case .attribute: result[key] = attrs[p.slot]
            case .toOne: result[key] = ones[p.slot].map { .integer($0.rowID) } ?? .null
            case .toMany: result[key] = .integer(Int64(managedContext?.members(self, p).count ?? 0))
            }
        }
        return result
    }

    /// The committed (last saved or fetched) values of attributes, by name;
    /// all attributes when `keys` is nil.
    ///
    ///     planet.committedValues(forKeys: ["name"])["name"]   // .text("Earth")
    public func committedValues(forKeys keys: [String]? = nil) -> [String: StoreValue] {
        if isFault { managedContext?.fulfill(self) }
        let source = committed?.attrs ?? attrs
        var result: [String: StoreValue] = [:]
        for p in meta.attributes where keys?.contains(p.name) ?? true { result[p.name] = source[p.slot] }
        return result
    }

    /// The current value of an attribute by name, as stored (for generic tools and tests).
    ///
    ///     planet.storeValue(forKey: "name")   // .text("Earth")
    public func storeValue(forKey key: String) -> StoreValue {
        guard let p = meta.byName[key] else { preconditionFailure("\(meta.name) has no property '\(key)'") }
        switch slot(p).storage {
        case .value(let v): return v
        case .one(let id): return id.map { .integer($0.rowID) } ?? .null
        case .many(let ids): return .integer(Int64(ids.count))
        }
    }

    /// The entity description of this object.
    public var entityDescription: EntityDescription { meta }
}
