// What FolioResults needs from the store beyond fetching: where the store
// lives and how far its history has come (to validate a results cache), and
// the key path a property was declared with (to follow to-one relationships).
// Which properties a request's filters read is the fetch's own answer (see
// ``ObjectContext/propertiesRead(byFiltersOf:)``).

extension ObjectContext {
    /// The store file's path, or nil for an in-memory store.
    ///
    ///     context.storePath   // "/home/me/.local/share/folio/zootastic.sqlite"
    public var storePath: String? {
        let path = coordinator.path
        return path == ":memory:" ? nil : path
    }

    /// A number that grows with every save to the store, by any context or
    /// process (the newest history position).
    ///
    ///     let before = try context.storeGeneration()
    package func storeGeneration() throws -> Int64 {
        try withStore { try $0.latestHistoryPosition() }
    }

    /// The identifier the store was given when it was made: a store deleted
    /// and made again at the same path has another. Nil for a store made
    /// before identifiers that has been opened only read-only since.
    ///
    ///     let made = try context.storeIdentifier()   // "6F9619FF-8B86-D011-B42D-00C04FC964FF"
    package func storeIdentifier() throws -> String? {
        try withStore { try $0.storeIdentifier() }
    }
}

extension ObjectContext {
    /// The objects registered for rows of one entity, as they are now (a
    /// copy of the tables, which shares their storage): the entity is found
    /// once, not by name per object as ``object(with:)`` does, since a big
    /// save hands the results controller thousands of objects to read, on
    /// several threads while the context's waits. Nil for an unknown entity.
    ///
    ///     let rows = context.registeredRows(ofEntity: "Planet")
    ///     rows?.object(anyRowID: 3)   // planet3, unretained
    package func registeredRows(ofEntity name: String) -> RegisteredRows? {
        schema.entity(named: name).map { registry.rows(of: $0) }
    }
}

extension ManagedObject {
    /// The current value of the attribute in `slot` (see
    /// ``PropertyDescription/attributeSlot``), loading the object if it is a
    /// fault: no lookup of the attribute by name.
    ///
    ///     object.attributeValue(atSlot: slot)   // .text("Earth")
    package func attributeValue(atSlot slot: Int) -> StoreValue {
        if isFault { liveContext(for: meta.attributes[slot]).fulfill(self) }
        return attrs[slot]
    }
}

extension PropertyDescription {
    /// An attribute's place among its entity's attributes, for
    /// ``ManagedObject/attributeValue(atSlot:)``; nil for a relationship.
    ///
    ///     entity.byName["name"]?.attributeSlot   // 0
    package var attributeSlot: Int? { isAttribute ? slot : nil }
}

extension EntityDescription {
    /// The properties a key path goes through, from this entity: one for an
    /// attribute, the to-one relationships and then the attribute for a
    /// composed key path (`\Animal.classification?.order`).
    ///
    ///     try animalEntity.properties(along: \Animal.classification?.order).map(\.name)   // ["classification", "order"]
    package func properties(along keyPath: AnyKeyPath) throws -> [PropertyDescription] {
        try resolve(keyPath: keyPath)
    }
}

extension PropertyDescription {
    /// The key path the property was declared with.
    ///
    ///     Animal.entity.properties.first { $0.name == "classification" }?.declaredKeyPath
    public var declaredKeyPath: AnyKeyPath { keyPath }
}
