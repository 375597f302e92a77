/// Which objects of a context hold a list for each to-many, so that a merge
/// visits the lists another save could have changed instead of walking
/// every registered object. ``ObjectRegistry`` keeps it: an entry is made
/// with its list and goes when its object is unregistered; a list dropped
/// meanwhile leaves its entry until a visit finds the list gone.
///
///     var index = LoadedListIndex(schema: schema)
///     index.insert(zoo.objectID, animals)
///     index.relationships(targeting: animalEntity)   // [Zoo.animals]
struct LoadedListIndex {
    /// `stored[entity][slot]`: row IDs of saved objects with a list in that to-many.
    private var stored: [[Set<Int64>]]
    /// The same for new objects, under their temporary row IDs.
    private var temporary: [[Set<Int64>]]
    /// `targeting[entity]`: the to-manys whose members are of that entity.
    private let targeting: [[PropertyDescription]]
    /// Ordered lists a merge kept for their unsaved changes while their
    /// stored members may have moved: visited at every merge until one finds
    /// them without changes and drops them, as when every merge visited every list.
    private(set) var keptBehind: [KeptList: PropertyDescription] = [:]

    /// An object's list in one to-many.
    struct KeptList: Hashable {
        let rowID: Int64
        let property: ObjectIdentifier
    }

    init(schema: Schema) {
        stored = schema.entities.map { Array(repeating: [], count: $0.toManys.count) }
        temporary = stored
        var targeting = Array(repeating: [PropertyDescription](), count: schema.entities.count)
        for e in schema.entities {
            for p in e.toManys { targeting[p.target.index].append(p) }
        }
        self.targeting = targeting
    }

    /// The to-manys whose members are of `entity`.
    func relationships(targeting entity: EntityDescription) -> [PropertyDescription] { targeting[entity.index] }

    /// Every to-many of the schema.
    var relationships: [PropertyDescription] { targeting.flatMap { $0 } }

    /// Notes that the object `id` holds a list in `p`.
    mutating func insert(_ id: ObjectID, _ p: PropertyDescription) {
        if id.isTemporary {
            temporary[p.entity.index][p.slot].insert(id.rowID)
        } else {
            stored[p.entity.index][p.slot].insert(id.rowID)
        }
    }

    /// The row IDs noted for `p`: saved objects', then new objects'.
    func owners(_ p: PropertyDescription) -> (stored: Set<Int64>, temporary: Set<Int64>) {
        (stored[p.entity.index][p.slot], temporary[p.entity.index][p.slot])
    }

    /// Forgets the entries `rowIDs` of `p` (their lists are gone).
    mutating func remove(_ rowIDs: [Int64], _ p: PropertyDescription, temporary isTemporary: Bool) {
        guard !rowIDs.isEmpty else { return }
        if isTemporary {
            for id in rowIDs { temporary[p.entity.index][p.slot].remove(id) }
        } else {
            for id in rowIDs { stored[p.entity.index][p.slot].remove(id) }
        }
    }

    /// Forgets every entry of the object `id` of the entity at `entity` (it left the context).
    mutating func removeAll(_ id: ObjectID, entity: Int) {
        for slot in stored[entity].indices {
            if id.isTemporary {
                if !temporary[entity][slot].isEmpty { temporary[entity][slot].remove(id.rowID) }
            } else if !stored[entity][slot].isEmpty {
                stored[entity][slot].remove(id.rowID)
            }
        }
    }

    /// Notes that a merge kept the ordered list of the object `id` in `p`.
    mutating func keepBehind(_ id: ObjectID, _ p: PropertyDescription) {
        keptBehind[KeptList(rowID: id.rowID, property: ObjectIdentifier(p))] = p
    }

    /// Forgets kept lists that are gone or were dropped.
    mutating func forgetKeptBehind(_ lists: [KeptList]) {
        for list in lists { keptBehind[list] = nil }
    }

    /// Forgets every new object's entries (a save gave them permanent IDs).
    mutating func removeTemporaries() {
        for e in temporary.indices {
            for slot in temporary[e].indices where !temporary[e][slot].isEmpty { temporary[e][slot] = [] }
        }
    }
}
