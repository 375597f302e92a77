import Foundation

/// A term of a translated expression.
enum SQLTerm {
    /// An object: the root (`t0`) or a joined to-one target.
    case entity(EntityDescription, alias: String, chain: [PropertyDescription])
    /// A to-one relationship not yet joined: its foreign-key column.
    case relation(PropertyDescription, chain: [PropertyDescription])
    /// An attribute's column (or an expression over one).
    case column(String)
    /// A constant from the predicate, bound as a parameter.
    case value(Any)
    /// `nil`.
    case nilLiteral
    /// A boolean SQL condition.
    case condition(String)
    /// A to-many relationship of the object at `owner` (an alias).
    case toMany(PropertyDescription, owner: String)
}

/// Builds SQL for one fetch: joins for to-one key paths, bound values, and
/// the variables of the predicate being translated.
final class SQLQueryBuilder {
    let root: EntityDescription
    let dialect: SQLDialect
    private(set) var joins: [String] = []
    /// Each joined alias and the entity it reads.
    private(set) var joined: [(alias: String, entity: EntityDescription)] = []
    /// The properties each key path read from the root goes through, in the
    /// order translated (see ``ObjectContext/propertiesRead(byFiltersOf:)``).
    private(set) var chainsRead: [[PropertyDescription]] = []
    private var aliases: [String: String] = [:]
    var bindings: [StoreValue] = []
    var variables: [PredicateExpressions.VariableID: SQLTerm] = [:]
    /// Inside a `contains(where:)` subquery, where joins of the outer query cannot be used.
    var insideSubquery = false
    private var subqueries = 0

    /// A fresh alias for a subquery's table.
    func subqueryAlias() -> String {
        subqueries += 1
        return "s\(subqueries)"
    }

    init(root: EntityDescription, dialect: SQLDialect = SQLiteDialect()) {
        self.root = root
        self.dialect = dialect
    }

    /// Binds `value` and returns its marker.
    func bind(_ value: StoreValue) -> String {
        bindings.append(value)
        return dialect.placeholder(bindings.count)
    }

    /// The table alias for the object reached through a chain of to-ones, joining as needed.
    func alias(for chain: [PropertyDescription]) -> String {
        if chain.isEmpty { return "t0" }
        let key = chain.map(\.name).joined(separator: ".")
        if let a = aliases[key] { return a }
        let parent = alias(for: Array(chain.dropLast()))
        let p = chain.last!
        let a = "t\(aliases.count + 1)"
        aliases[key] = a
        joins.append("LEFT JOIN \(quote(p.target.name)) \(a) ON \(a).id = \(parent).\(quote(p.name))")
        joined.append((a, p.target))
        return a
    }

    /// The column (with its alias) of a property reached through a chain.
    func column(for chain: [PropertyDescription]) -> String {
        alias(for: Array(chain.dropLast())) + "." + quote(chain.last!.name)
    }

    /// The term for a key path applied to an object term.
    func navigate(_ base: SQLTerm, _ keyPath: AnyKeyPath) throws -> SQLTerm {
        switch base {
        case .entity(let e, let base, let chain):
            if type(of: keyPath).valueType == ObjectID.self { return .column("\(base).id") }
            let props = try e.resolve(keyPath: keyPath)
            if insideSubquery && (props.count > 1 || !props[0].isAttribute) {
                throw StoreError.unsupportedPredicate("relationships inside contains(where:) (only the members' attributes)")
            }
            let full = chain + props
            // A subquery's members are another root: only the outer query's paths start at the root.
            if !insideSubquery { chainsRead.append(full) }
            let last = full.last!
            if props.count == 1 && last.isAttribute { return .column("\(base).\(quote(last.name))") }
            if last.isAttribute { return .column(column(for: full)) }
            if last.isToOne { return .relation(last, chain: full) }
            return .toMany(last, owner: alias(for: Array(full.dropLast())))
        case .toMany(let p, let owner):
            // A collection's Int property here is `count`, its Bool property `isEmpty`.
            let valueType = type(of: keyPath).valueType
            if valueType == Int.self { return .column("(SELECT count(*) FROM (\(members(p, owner))))") }
            if valueType == Bool.self { return .condition("(NOT EXISTS (\(members(p, owner))))") }
            throw StoreError.unsupportedPredicate("the key path \(keyPath) on the to-many \(p.entity.name).\(p.name)")
        case .relation(let p, let chain):
            return try navigate(.entity(p.target, alias: alias(for: chain), chain: chain), keyPath)
        case .column(let sql):
            if keyPath == \String.isEmpty { return .condition("(\(sql) = '')") }
            if keyPath == \String.count { return .column(dialect.length(sql)) }
            throw StoreError.unsupportedPredicate("the key path \(keyPath) on an attribute value")
        default:
            throw StoreError.unsupportedPredicate("the key path \(keyPath) on a constant")
        }
    }

    /// A subquery selecting the member IDs of the to-many `p` of the object at `owner`.
    func members(_ p: PropertyDescription, _ owner: String) -> String {
        switch p.storage {
        case .inverseColumn(let column, _):
            return "SELECT m.id FROM \(quote(p.target.name)) m WHERE m.\(quote(column)) = \(owner).id"
        case .joinTable(let table, let mine, let other, _):
            return "SELECT j.\(other) FROM \(quote(table)) j WHERE j.\(mine) = \(owner).id"
        default:
            return "SELECT NULL WHERE \(dialect.falseCondition)"
        }
    }

    /// Follows a to-one into its target object (for `!` and `?.`).
    func unwrap(_ term: SQLTerm) -> SQLTerm {
        if case .relation(let p, let chain) = term { return .entity(p.target, alias: alias(for: chain), chain: chain) }
        return term
    }

    /// A term as an SQL value expression, binding constants.
    func sql(_ term: SQLTerm) throws -> String {
        switch term {
        case .entity(_, let alias, _): return "\(alias).id"
        case .relation(_, let chain): return column(for: chain)
        case .column(let s): return s
        case .nilLiteral: return "NULL"
        case .condition(let c): return c
        case .value(let v):
            return bind(try Self.storeValue(v))
        case .toMany(let p, _):
            throw StoreError.unsupportedPredicate("the to-many \(p.entity.name).\(p.name) used as a value (use contains, count or isEmpty)")
        }
    }

    /// A term as a boolean condition.
    func condition(_ term: SQLTerm) throws -> String {
        switch term {
        case .condition(let c): return c
        case .column(let s): return "(\(s) = 1)"
        case .value(let v as Bool): return v ? dialect.trueCondition : dialect.falseCondition
        default: throw StoreError.unsupportedPredicate("a non-boolean expression used as a condition")
        }
    }

    /// A predicate constant as a stored value: attributes as stored, objects by row ID.
    static func storeValue(_ v: Any) throws -> StoreValue {
        let mirror = Mirror(reflecting: v)
        if mirror.displayStyle == .optional {
            guard let child = mirror.children.first else { return .null }
            return try storeValue(child.value)
        }
        if let a = v as? any AttributeValue { return a.storeValue }
        if let o = v as? ManagedObject { return .integer(o.objectID.rowID) }
        if let id = v as? ObjectID { return .integer(id.rowID) }
        throw StoreError.unsupportedPredicate("the constant \(v) of type \(type(of: v))")
    }

    /// The elements of a constant sequence (for `IN`).
    static func storeValues(_ v: Any) throws -> [StoreValue] {
        guard let seq = v as? any Sequence else { throw StoreError.unsupportedPredicate("contains() on \(type(of: v))") }
        return try elements(of: seq).map(storeValue)
    }

    private static func elements<S: Sequence>(of s: S) -> [Any] { s.map { $0 as Any } }
}
