/// The context's uniquing table: one unowned entry per live object, keyed
/// by row ID per entity (integer keys hash and compare cheaply), with
/// temporary IDs apart so a save drops them all at once. Objects remove
/// themselves when they are deallocated. It also knows which registered
/// objects hold to-many lists (``LoadedListIndex``), so a merge finds them
/// without walking every object.
struct ObjectRegistry {
    private var byEntity: [[Int64: Unmanaged<ManagedObject>]]
    private var temporaries: [Int64: Unmanaged<ManagedObject>] = [:]
    private let schema: Schema
    private(set) var lists: LoadedListIndex

    init(schema: Schema) {
        self.schema = schema
        byEntity = Array(repeating: [:], count: schema.entities.count)
        lists = LoadedListIndex(schema: schema)
    }

    private func index(_ name: String) -> Int? { schema.entity(named: name)?.index }

    subscript(id: ObjectID) -> ManagedObject? {
        if id.isTemporary { return temporaries[id.rowID]?.takeUnretainedValue() }
        guard let i = index(id.entityName) else { return nil }
        return byEntity[i][id.rowID]?.takeUnretainedValue()
    }

    /// The object for a stored row of a known entity.
    func object(_ entity: EntityDescription, _ rowID: Int64) -> ManagedObject? {
        byEntity[entity.index][rowID]?.takeUnretainedValue()
    }

    /// The object registered for a row of `entity`, saved or (a negative row ID) new.
    func object(_ entity: EntityDescription, anyRowID rowID: Int64) -> ManagedObject? {
        rowID < 0 ? temporaries[rowID]?.takeUnretainedValue() : object(entity, rowID)
    }

    /// The entity's entries as they are now, to be read without the context.
    func rows(of entity: EntityDescription) -> RegisteredRows {
        RegisteredRows(entity: entity, table: byEntity[entity.index], temporaries: temporaries)
    }

    mutating func insert(_ o: ManagedObject) {
        if o.objectID.isTemporary {
            temporaries[o.objectID.rowID] = Unmanaged.passUnretained(o)
        } else {
            byEntity[o.meta.index][o.objectID.rowID] = Unmanaged.passUnretained(o)
        }
        // A new object registered again under its permanent ID keeps its lists.
        for p in o.meta.toManys where o.manys[p.slot] != nil { lists.insert(o.objectID, p) }
    }

    mutating func remove(_ id: ObjectID) {
        guard let i = index(id.entityName) else {
            if id.isTemporary { temporaries[id.rowID] = nil }
            return
        }
        if id.isTemporary { temporaries[id.rowID] = nil } else { byEntity[i][id.rowID] = nil }
        lists.removeAll(id, entity: i)
    }

    /// Removes the entry of an object of a known entity: no lookup of the entity by name
    /// (an object going away as its fetch's results are dropped, 100,000 at a time).
    mutating func remove(_ id: ObjectID, entity: Int) {
        if id.isTemporary { temporaries[id.rowID] = nil } else { byEntity[entity][id.rowID] = nil }
        lists.removeAll(id, entity: entity)
    }

    /// Notes that `o` now holds a list in `p`.
    mutating func noteList(_ o: ManagedObject, _ p: PropertyDescription) { lists.insert(o.objectID, p) }

    /// Notes that a merge kept `o`'s ordered list in `p` for its unsaved changes.
    mutating func keepBehind(_ o: ManagedObject, _ p: PropertyDescription) { lists.keepBehind(o.objectID, p) }

    /// Forgets kept lists that are gone or were dropped.
    mutating func forgetKeptBehind(_ kept: [LoadedListIndex.KeptList]) { lists.forgetKeptBehind(kept) }

    /// Forgets the entries of lists in `p` that are gone.
    mutating func forgetLists(_ rowIDs: [Int64], _ p: PropertyDescription, temporary: Bool) {
        lists.remove(rowIDs, p, temporary: temporary)
    }

    /// The IDs of the objects registered for rows `rows` of `entity`
    /// (new rows of a batch insert: usually none), found from the smaller side.
    func registeredIDs(_ entity: EntityDescription, in rows: ClosedRange<Int64>) -> Set<ObjectID> {
        let table = byEntity[entity.index]
        let found = table.count < rows.count ? table.keys.filter(rows.contains) : rows.filter { table[$0] != nil }
        return Set(found.map { ObjectID(entityName: entity.name, rowID: $0) })
    }

    /// Makes room for `count` more stored objects of an entity.
    mutating func reserve(_ count: Int, for entity: EntityDescription) {
        byEntity[entity.index].reserveCapacity(byEntity[entity.index].count + count)
    }

    /// Forgets every temporary ID (after a save gave them permanent ones).
    mutating func removeTemporaries() {
        temporaries.removeAll()
        lists.removeTemporaries()
    }

    /// Every registered object.
    var all: [ManagedObject] {
        temporaries.values.map { $0.takeUnretainedValue() } + byEntity.flatMap { $0.values.map { $0.takeUnretainedValue() } }
    }

    /// Every registered ID and object.
    var entries: [(ObjectID, ManagedObject)] { all.map { ($0.objectID, $0) } }
}

/// One entity's registered objects at one moment: ``ObjectRegistry/object(_:anyRowID:)``
/// on a copy of its tables (which shares their storage), so that threads
/// other than the context's can look objects up while the context waits.
///
///     context.registeredRows(ofEntity: "Planet")?.object(anyRowID: -1)   // a new planet
// @unchecked: the tables are immutable copies and the objects are handed
// out unretained, only to be read while the context's thread waits and
// they stay registered (the results controller's reading threads).
package struct RegisteredRows: @unchecked Sendable {
    let entity: EntityDescription
    let table: [Int64: Unmanaged<ManagedObject>]
    let temporaries: [Int64: Unmanaged<ManagedObject>]

    /// The object for a row of the entity, saved or (a negative row ID) new; unretained, nothing is loaded.
    package func object(anyRowID rowID: Int64) -> Unmanaged<ManagedObject>? {
        // Temporary IDs are shared by every entity: check the object's.
        if rowID < 0 { return temporaries[rowID].flatMap { $0.takeUnretainedValue().meta === entity ? $0 : nil } }
        return table[rowID]
    }
}
