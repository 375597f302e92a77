/// The set of entities a store holds, with a name and a version number.
/// Relationships and their inverses are resolved and checked when the schema
/// is built.
///
///     let schema = Schema(name: "Zootastic", version: 2, [Zoo.self, Classification.self, Animal.self])
///
/// Raising `version` after adding entities, attributes with defaults or
/// optional attributes, or relationships lets the container migrate an
/// existing store in place (lightweight migration). The name is recorded in
/// the store, and a store of another name is refused (a store of an unnamed
/// schema is refused when it shares no entity with the one opening it).
// Sendable: built once in init, read-only after.
public final class Schema: @unchecked Sendable {
    /// The name recorded in the store: which application's data it is.
    public let name: String?
    /// The schema version stored in the file.
    public let version: Int
    /// The entities in declaration order.
    public let entities: [EntityDescription]
    private var byName: [String: EntityDescription] = [:]
    private var byType: [ObjectIdentifier: EntityDescription] = [:]

    /// Builds the schema from the entity classes.
    ///
    ///     Schema(name: "Planets", [Planet.self])
    public init(name: String? = nil, version: Int = 1, _ types: [ManagedObject.Type]) {
        self.name = name
        self.version = version
        // Copies of its own: the schema fills in their positions, targets and inverses.
        entities = types.map { $0.entity.copy() }
        for (i, e) in entities.enumerated() {
            precondition(byName[e.name] == nil, "the entity \(e.name) is declared twice")
            precondition(e.objectType == types[i], "\(types[i]).entity describes \(e.objectType), not \(types[i])")
            e.index = i
            byName[e.name] = e
            byType[ObjectIdentifier(types[i])] = e
        }
        for e in entities { for p in e.properties where !p.isAttribute { resolve(p, in: e) } }
    }

    /// The entity for a name, if declared.
    ///
    ///     schema.entity(named: "Planet")?.properties.count
    public func entity(named name: String) -> EntityDescription? { byName[name] }

    /// The entity for a class; precondition: it is part of the schema.
    func entity(for type: ManagedObject.Type) -> EntityDescription {
        guard let e = byType[ObjectIdentifier(type)] else {
            preconditionFailure("\(type) is not an entity of this schema; add it to Schema([...])")
        }
        return e
    }

    private func resolve(_ p: PropertyDescription, in e: EntityDescription) {
        let label = "\(e.name).\(p.name)"
        guard let targetType = p.targetType, let target = byType[ObjectIdentifier(targetType)] else {
            preconditionFailure("\(label) points at \(p.targetType.map { "\($0)" } ?? "nothing"), which is not in the schema")
        }
        p.target = target
        guard let ik = p.inverseKeyPath, let inverse = target.byKeyPath[ik] else {
            preconditionFailure("\(label): its inverse is not a declared property of \(target.name)")
        }
        precondition(
            !inverse.isAttribute && inverse.targetType == e.objectType,
            "\(label): the inverse \(target.name).\(inverse.name) must be a relationship back to \(e.name)")
        p.inverse = inverse
        switch p.kind {
        case .attribute: break
        case .toOne: p.storage = .column(p.name)
        case .toMany(let ordered):
            if inverse.isToOne {
                p.storage = .inverseColumn(column: inverse.name, order: ordered ? "_order_\(p.name)" : nil)
            } else {
                let owner = (e.name, p.name) < (target.name, inverse.name)
                let table = owner ? "_\(e.name)_\(p.name)" : "_\(target.name)_\(inverse.name)"
                let (mine, other) = owner ? ("a", "b") : ("b", "a")
                p.storage = .joinTable(table: table, mine: mine, other: other, order: ordered ? "\(mine)_order" : nil)
            }
        }
    }
}
