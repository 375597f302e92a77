/// One stored property of an entity: an attribute or a relationship, declared
/// with the type-safe key path of its `@Managed` property.
///
///     .attribute(\Animal.commonName, "commonName", indexed: true)
///     .toOne(\Animal.classification, "classification", inverse: \Classification.animals)
///     .toMany(\Classification.animals, "animals", inverse: \Animal.classification, deleteRule: .cascade)
// Sendable: set up while the schema is built, before it is shared, and read-only after.
public final class PropertyDescription: @unchecked Sendable {
    enum Kind {
        case attribute(StoreType)
        case toOne
        case toMany(ordered: Bool)
    }

    /// The property's name: its column, and the key in change sets.
    public let name: String
    let keyPath: AnyKeyPath
    let kind: Kind
    package let isOptional: Bool
    package let defaultValue: StoreValue?
    package let isIndexed: Bool
    package let isUnique: Bool
    let validate: (StoreValue) -> String?
    let hasRules: Bool
    let targetType: ManagedObject.Type?
    let inverseKeyPath: AnyKeyPath?
    /// What deleting the owner does to the related objects.
    public let deleteRule: DeleteRule

    // Set once when the schema is built, on the schema's own copies. Unowned: the schema owns every
    // entity and property, and owning back would be a cycle; a use after the schema is gone traps.
    unowned var entity: EntityDescription!
    var index = -1
    var slot = -1
    package unowned var target: EntityDescription!
    package unowned var inverse: PropertyDescription!
    package var storage: RelationshipStorage = .none

    init(
        name: String, keyPath: AnyKeyPath, kind: Kind, isOptional: Bool, defaultValue: StoreValue? = nil,
        isIndexed: Bool = false, isUnique: Bool = false,
        hasRules: Bool = false, validate: @escaping (StoreValue) -> String? = { _ in nil },
        targetType: ManagedObject.Type? = nil, inverseKeyPath: AnyKeyPath? = nil, deleteRule: DeleteRule = .nullify
    ) {
        self.name = name
        self.keyPath = keyPath
        self.kind = kind
        self.isOptional = isOptional
        self.defaultValue = defaultValue
        self.isIndexed = isIndexed
        self.isUnique = isUnique
        self.validate = validate
        self.hasRules = hasRules
        self.targetType = targetType
        self.inverseKeyPath = inverseKeyPath
        self.deleteRule = deleteRule
    }

    /// The same declaration, not yet part of any entity or schema.
    func copy() -> PropertyDescription {
        PropertyDescription(
            name: name, keyPath: keyPath, kind: kind, isOptional: isOptional, defaultValue: defaultValue,
            isIndexed: isIndexed, isUnique: isUnique, hasRules: hasRules, validate: validate,
            targetType: targetType, inverseKeyPath: inverseKeyPath, deleteRule: deleteRule)
    }

    package var isAttribute: Bool { if case .attribute = kind { true } else { false } }
    package var isToOne: Bool { if case .toOne = kind { true } else { false } }
    package var isToMany: Bool { if case .toMany = kind { true } else { false } }
    package var isOrdered: Bool { if case .toMany(true) = kind { true } else { false } }
    package var storeType: StoreType { if case .attribute(let t) = kind { t } else { .integer } }

    /// A stored attribute. `name` is its column and its key in change sets
    /// (use the property's name); `defaultValue`
    /// fills a new object's attribute and lets migrations add the column.
    ///
    ///     .attribute(\Location.latitude, "latitude", defaultValue: 0, rules: [.range(-90...90)])
    public static func attribute<Root: ManagedObject, Value: ManagedValue>(
        _ keyPath: ReferenceWritableKeyPath<Root, Value>, _ name: String, defaultValue: Value? = nil,
        indexed: Bool = false, unique: Bool = false, rules: [ValidationRule<Value>] = []
    ) -> PropertyDescription {
        let kind = Value._managedKind
        guard case .attribute(let type) = kind.storage else {
            preconditionFailure("\(keyPath) is a relationship; declare it with .toOne or .toMany")
        }
        var defaultStored: StoreValue?
        if let defaultValue, case .value(let v) = defaultValue._slot.storage { defaultStored = v }
        // Made for the concrete type where it is a common one: the check runs for every value a
        // batch insert writes, and a generic one looks its types up at run time on each call.
        let check =
            (rules as? [ValidationRule<String>]).map(storedValueCheck)
            ?? (rules as? [ValidationRule<Int>]).map(storedValueCheck)
            ?? (rules as? [ValidationRule<Double>]).map(storedValueCheck)
            ?? storedValueCheck(rules)
        return PropertyDescription(
            name: name, keyPath: keyPath, kind: .attribute(type), isOptional: kind.optional,
            defaultValue: defaultStored, isIndexed: indexed || unique, isUnique: unique,
            hasRules: !rules.isEmpty, validate: check)
    }

    /// Checks a stored value against `rules`: the reason of the first it breaks, or nil.
    private static func storedValueCheck<Value: ManagedValue>(_ rules: [ValidationRule<Value>]) -> (StoreValue) -> String? {
        let checks = rules.map(\.check)
        return { stored in
            if checks.isEmpty { return nil }
            let value = Value._decode(ManagedSlot(storage: .value(stored)), in: nil)
            for rule in checks { if let reason = rule(value) { return reason } }
            return nil
        }
    }

    /// An optional to-one relationship with its inverse on the target.
    ///
    ///     .toOne(\Animal.classification, "classification", inverse: \Classification.animals, deleteRule: .nullify)
    public static func toOne<Root: ManagedObject, Target: ManagedObject>(
        _ keyPath: ReferenceWritableKeyPath<Root, Target?>, _ name: String,
        inverse: PartialKeyPath<Target>, deleteRule: DeleteRule = .nullify
    ) -> PropertyDescription {
        PropertyDescription(
            name: name, keyPath: keyPath, kind: .toOne, isOptional: true, isIndexed: true,
            targetType: Target.self, inverseKeyPath: inverse, deleteRule: deleteRule)
    }

    /// A required to-one relationship: a save fails validation while it is unset.
    ///
    ///     .toOne(\Unit.race, "race", inverse: \Race.units)
    public static func toOne<Root: ManagedObject, Target: ManagedObject>(
        _ keyPath: ReferenceWritableKeyPath<Root, Target>, _ name: String,
        inverse: PartialKeyPath<Target>, deleteRule: DeleteRule = .nullify
    ) -> PropertyDescription {
        PropertyDescription(
            name: name, keyPath: keyPath, kind: .toOne, isOptional: false, isIndexed: true,
            targetType: Target.self, inverseKeyPath: inverse, deleteRule: deleteRule)
    }

    /// A to-many relationship (a set) with its inverse on the target.
    ///
    ///     .toMany(\Zoo.animals, "animals", inverse: \Animal.zoos)
    public static func toMany<Root: ManagedObject, Target: ManagedObject>(
        _ keyPath: ReferenceWritableKeyPath<Root, Set<Target>>, _ name: String,
        inverse: PartialKeyPath<Target>, deleteRule: DeleteRule = .nullify
    ) -> PropertyDescription {
        PropertyDescription(
            name: name, keyPath: keyPath, kind: .toMany(ordered: false), isOptional: true,
            targetType: Target.self, inverseKeyPath: inverse, deleteRule: deleteRule)
    }

    /// An ordered to-many relationship (an array kept in order) with its inverse.
    ///
    ///     .toMany(\Guide.units, "units", inverse: \Unit.guides)
    public static func toMany<Root: ManagedObject, Target: ManagedObject>(
        _ keyPath: ReferenceWritableKeyPath<Root, [Target]>, _ name: String,
        inverse: PartialKeyPath<Target>, deleteRule: DeleteRule = .nullify
    ) -> PropertyDescription {
        PropertyDescription(
            name: name, keyPath: keyPath, kind: .toMany(ordered: true), isOptional: true,
            targetType: Target.self, inverseKeyPath: inverse, deleteRule: deleteRule)
    }
}

/// Where a relationship's membership lives in SQL.
package enum RelationshipStorage {
    case none
    /// A to-one: the foreign-key column on the owner's table.
    case column(String)
    /// A to-many whose inverse is a to-one: the target's foreign-key column,
    /// and for ordered ones a position column on the target.
    case inverseColumn(column: String, order: String?)
    /// A many-to-many: a join table, this side's and the other side's columns,
    /// and this side's position column when ordered.
    case joinTable(table: String, mine: String, other: String, order: String?)
}
