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
}

/// Builds SQL for one fetch: joins for to-one key paths, bound values, and
/// the variables of the predicate being translated.
final class SQLQueryBuilder {
    let root: EntityDescription
    private(set) var joins: [String] = []
    private var aliases: [String: String] = [:]
    var bindings: [StoreValue] = []
    var variables: [PredicateExpressions.VariableID: SQLTerm] = [:]

    init(root: EntityDescription) { self.root = root }

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
        return a
    }

    /// The column (with its alias) of a property reached through a chain.
    func column(for chain: [PropertyDescription]) -> String {
        alias(for: Array(chain.dropLast())) + "." + quote(chain.last!.name)
    }

    /// The term for a key path applied to an object term.
    func navigate(_ base: SQLTerm, _ keyPath: AnyKeyPath) throws -> SQLTerm {
        switch base {
        case .entity(let e, _, let chain):
            let props = try e.resolve(keyPath: keyPath)
            let full = chain + props
            let last = full.last!
            if last.isAttribute { return .column(column(for: full)) }
            if last.isToOne { return .relation(last, chain: full) }
            throw StoreError.unsupportedPredicate("the to-many key path \(keyPath) (only attributes and to-one relationships)")
        case .relation(let p, let chain):
            return try navigate(.entity(p.target, alias: alias(for: chain), chain: chain), keyPath)
        case .column(let sql):
            if keyPath == \String.isEmpty { return .condition("(\(sql) = '')") }
            if keyPath == \String.count { return .column("length(\(sql))") }
            throw StoreError.unsupportedPredicate("the key path \(keyPath) on an attribute value")
        default:
            throw StoreError.unsupportedPredicate("the key path \(keyPath) on a constant")
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
            bindings.append(try Self.storeValue(v))
            return "?"
        }
    }

    /// A term as a boolean condition.
    func condition(_ term: SQLTerm) throws -> String {
        switch term {
        case .condition(let c): return c
        case .column(let s): return "(\(s) = 1)"
        case .value(let v as Bool): return v ? "1" : "0"
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
        throw StoreError.unsupportedPredicate("the constant \(v) of type \(type(of: v))")
    }

    /// The elements of a constant sequence (for `IN`).
    static func storeValues(_ v: Any) throws -> [StoreValue] {
        guard let seq = v as? any Sequence else { throw StoreError.unsupportedPredicate("contains() on \(type(of: v))") }
        return try elements(of: seq).map(storeValue)
    }

    private static func elements<S: Sequence>(of s: S) -> [Any] { s.map { $0 as Any } }
}
