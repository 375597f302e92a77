/// The context's uniquing table: one unowned entry per live object, keyed
/// by row ID per entity (integer keys hash and compare cheaply), with
/// temporary IDs apart so a save drops them all at once. Objects remove
/// themselves when they are deallocated.
struct ObjectRegistry {
    private var byEntity: [[Int64: Unmanaged<ManagedObject>]]
    private var temporaries: [Int64: Unmanaged<ManagedObject>] = [:]
    private let schema: Schema

    init(schema: Schema) {
        self.schema = schema
        byEntity = Array(repeating: [:], count: schema.entities.count)
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

    mutating func insert(_ o: ManagedObject) {
        if o.objectID.isTemporary {
            temporaries[o.objectID.rowID] = Unmanaged.passUnretained(o)
        } else {
            byEntity[o.meta.index][o.objectID.rowID] = Unmanaged.passUnretained(o)
        }
    }

    mutating func remove(_ id: ObjectID) {
        if id.isTemporary { temporaries[id.rowID] = nil; return }
        guard let i = index(id.entityName) else { return }
        byEntity[i][id.rowID] = nil
    }

    /// Makes room for `count` more stored objects of an entity.
    mutating func reserve(_ count: Int, for entity: EntityDescription) {
        byEntity[entity.index].reserveCapacity(byEntity[entity.index].count + count)
    }

    /// Forgets every temporary ID (after a save gave them permanent ones).
    mutating func removeTemporaries() { temporaries.removeAll() }

    /// Every registered object.
    var all: [ManagedObject] {
        temporaries.values.map { $0.takeUnretainedValue() } + byEntity.flatMap { $0.values.map { $0.takeUnretainedValue() } }
    }

    /// Every registered ID and object.
    var entries: [(ObjectID, ManagedObject)] { all.map { ($0.objectID, $0) } }
}
