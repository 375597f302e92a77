import FolioLocking

/// An entity: a `ManagedObject` subclass, its table, and its properties.
/// Each class returns one from its `entity` class property.
///
///     final class Planet: ManagedObject {
///         @Managed var name: String
///         @Managed var position: Int
///         override class var entity: EntityDescription {
///             EntityDescription(Planet.self, properties: [
///                 .attribute(\Planet.name, "name", unique: true, rules: [.notEmpty]),
///                 .attribute(\Planet.position, "position", defaultValue: 0, indexed: true),
///             ])
///         }
///     }
// Sendable: its properties are set while the schema is built, before it is shared, and read-only after.
public final class EntityDescription: @unchecked Sendable {
    /// The entity's name (its table), by default the class's name.
    public let name: String
    /// The properties in declaration order.
    public let properties: [PropertyDescription]
    /// Groups of attribute names whose combined values must be unique.
    public let uniqueTogether: [[String]]
    let objectType: ManagedObject.Type

    // Filled in when the schema is built.
    var index = -1
    package private(set) var attributes: [PropertyDescription] = []
    package private(set) var toOnes: [PropertyDescription] = []
    package private(set) var toManys: [PropertyDescription] = []
    private(set) var byKeyPath: [AnyKeyPath: PropertyDescription] = [:]
    package private(set) var byName: [String: PropertyDescription] = [:]
    /// Composed key paths resolved so far (and refusals), by value.
    let resolvedKeyPaths = LockedValue<[KeyPathKey: Result<[PropertyDescription], StoreError>]>([:])
    /// The attributes' default values, the initial state of a new object.
    private(set) var defaults: [StoreValue] = []

    /// Declares an entity for `type`.
    ///
    ///     EntityDescription(Zoo.self, properties: [.attribute(\Zoo.name, "name"), .toMany(\Zoo.animals, "animals", inverse: \Animal.zoos)])
    public convenience init<T: ManagedObject>(
        _ type: T.Type, name: String? = nil, properties: [PropertyDescription],
        uniqueTogether: [[String]] = []
    ) {
        self.init(objectType: type, name: name ?? String(describing: type), properties: properties, uniqueTogether: uniqueTogether)
    }

    private init(objectType: ManagedObject.Type, name: String, properties: [PropertyDescription], uniqueTogether: [[String]]) {
        self.name = name
        self.properties = properties
        self.uniqueTogether = uniqueTogether
        self.objectType = objectType
        for (i, p) in properties.enumerated() {
            precondition(byName[p.name] == nil, "\(self.name) declares the property '\(p.name)' twice")
            precondition(p.name != RowVersion.column, "\(self.name).\(p.name): the name is the store's row version column")
            p.entity = self
            p.index = i
            byName[p.name] = p
            byKeyPath[p.keyPath] = p
            switch p.kind {
            case .attribute: p.slot = attributes.count; attributes.append(p)
            case .toOne: p.slot = toOnes.count; toOnes.append(p)
            case .toMany: p.slot = toManys.count; toManys.append(p)
            }
        }
        defaults = attributes.map { $0.defaultValue ?? .null }
    }

    /// A description of the same entity with new properties, for a schema
    /// to own and resolve: a description an app keeps (in a `static let`,
    /// say) may serve several schemas, each of which fills in its own
    /// positions, targets and inverses.
    func copy() -> EntityDescription {
        EntityDescription(objectType: objectType, name: name, properties: properties.map { $0.copy() }, uniqueTogether: uniqueTogether)
    }

    /// The property behind a `@Managed` key path of this entity.
    func property(_ keyPath: AnyKeyPath) -> PropertyDescription {
        guard let p = byKeyPath[keyPath] else {
            preconditionFailure("\(keyPath) is not declared in \(name).entity; add it to the properties list")
        }
        return p
    }

    /// Resolves any key path rooted at this entity to the chain of
    /// properties it reads: one for a declared property (matched by equality),
    /// the to-one relationships and then the last property for a composed one
    /// (found by ``KeyPathProbe``, once per key path).
    func resolve(keyPath: AnyKeyPath) throws -> [PropertyDescription] {
        if let p = byKeyPath[keyPath] { return [p] }
        if let name = NamedKeyPath.name(of: keyPath) { return try resolve(named: name) }
        let key = KeyPathKey(keyPath)
        if let known = resolvedKeyPaths.withLock({ $0[key] }) { return try known.get() }
        let found = KeyPathProbe.resolve(key, from: self)
        resolvedKeyPaths.withLock { $0[key] = found }
        return try found.get()
    }
}

extension EntityDescription {
    /// Resolves Core Data's dotted string form ("classification.order"):
    /// to-one relationships, then an attribute; the error names the key and
    /// the part the schema does not have.
    func resolve(named key: String) throws -> [PropertyDescription] {
        var entity = self
        var chain: [PropertyDescription] = []
        let parts = key.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        func refuse(_ why: String) -> StoreError { .unknownKeyPath(entity: name, keyPath: "'\(key)' (\(why))") }
        for (index, part) in parts.enumerated() {
            guard let p = entity.byName[part] else { throw refuse("\(entity.name) has no property '\(part)'") }
            chain.append(p)
            let isLast = index == parts.count - 1
            switch p.kind {
            case .attribute where isLast: return chain
            case .attribute: throw refuse("\(entity.name).\(part) is an attribute, not a to-one relationship")
            case .toOne where isLast: throw refuse("\(entity.name).\(part) is a relationship, not an attribute")
            case .toOne: entity = p.target
            case .toMany: throw refuse("\(entity.name).\(part) is a to-many relationship")
            }
        }
        return chain
    }
}

/// A key path as a dictionary key shared between threads.
// Sendable: key paths are immutable; these are only hashed, compared and applied to probes.
struct KeyPathKey: Hashable, @unchecked Sendable {
    let keyPath: AnyKeyPath
    init(_ keyPath: AnyKeyPath) { self.keyPath = keyPath }
}
