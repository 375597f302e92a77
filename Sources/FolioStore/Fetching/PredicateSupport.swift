import Foundation

/// What a `#Predicate` given to a ``FetchRequest`` may contain. Each form
/// becomes SQL with bound values; anything else throws
/// ``StoreError/unsupportedPredicate(_:)`` naming it (never a silent full scan).
///
/// - Key paths to attributes, and through to-one relationships in either
///   form: `$0.classification?.order`, `$0.classification!.order`
///   (each step is a `LEFT JOIN`; a missing object compares as nil).
/// - Constants of attribute types, ``ObjectID``s, `nil`. (`#Predicate` only
///   captures Codable values, so objects are compared through `objectID`.)
/// - `==`, `!=` (null-safe: `IS`, `IS NOT`), `<`, `<=`, `>`, `>=`.
/// - Numbers: negative literals and unary minus (`$0.score == -1`,
///   `$0.lat < -limit`), `+`, `-`, `*` on attributes and constants.
/// - `&&`, `||`, `!`.
/// - `[a, b].contains($0.key)` (`IN`), also with object IDs.
/// - Strings: `contains(_:)`, `starts(with:)`, `isEmpty`, `count`
///   (case-sensitive, by UTF-8 bytes).
/// - A Bool attribute alone as a condition (`$0.isFavorite`).
/// - `objectID` of the object or of a to-one target, compared with an ``ObjectID``.
/// - To-many relationships: `$0.zoos.isEmpty`, `$0.animals.count`, and
///   `$0.zoos.contains { $0.objectID == id }` or `{ $0.name == "X" }` with
///   conditions on the members' own attributes (correlated subqueries).
///
/// Not available from `#Predicate` on Linux, so offered by
/// ``StringFilter`` instead: case-, diacritic- and width-insensitive
/// matching (search), ends-with, and one condition over several attributes.
/// Not supported: relationships inside `contains(where:)`, other closures,
/// division and remainder (a zero divisor means a NULL on SQLite, an error
/// on PostgreSQL and a trap in Swift), conditionals, regexes.
///
///     #Predicate<Location> { $0.category == "Bar" && $0.latitude > 10.5 }
///     // ((t0."category" IS ?) AND (t0."latitude" > ?))
public enum PredicateSupport {
    /// Translates a predicate's expression into a condition on `builder`'s tables.
    static func condition<T>(_ predicate: Predicate<T>, _ builder: SQLQueryBuilder) throws -> String {
        builder.variables[predicate.variable.key] = .entity(builder.root, alias: "t0", chain: [])
        return try builder.condition(term(predicate.expression, builder))
    }

    static func term(_ expression: Any, _ builder: SQLQueryBuilder) throws -> SQLTerm {
        guard let e = expression as? SQLTranslatable else {
            throw StoreError.unsupportedPredicate(String(describing: type(of: expression)))
        }
        return try e.sqlTerm(builder)
    }
}

/// An expression that can become SQL.
protocol SQLTranslatable {
    func sqlTerm(_ builder: SQLQueryBuilder) throws -> SQLTerm
}

extension PredicateExpressions.Variable: SQLTranslatable {
    func sqlTerm(_ b: SQLQueryBuilder) throws -> SQLTerm {
        guard let t = b.variables[key] else { throw StoreError.unsupportedPredicate("an unbound variable") }
        return t
    }
}

extension PredicateExpressions.KeyPath: SQLTranslatable {
    func sqlTerm(_ b: SQLQueryBuilder) throws -> SQLTerm {
        try b.navigate(PredicateSupport.term(root, b), keyPath)
    }
}

extension PredicateExpressions.Value: SQLTranslatable {
    func sqlTerm(_ b: SQLQueryBuilder) throws -> SQLTerm { .value(value) }
}

extension PredicateExpressions.NilLiteral: SQLTranslatable {
    func sqlTerm(_ b: SQLQueryBuilder) throws -> SQLTerm { .nilLiteral }
}

extension PredicateExpressions.ForcedUnwrap: SQLTranslatable {
    func sqlTerm(_ b: SQLQueryBuilder) throws -> SQLTerm { b.unwrap(try PredicateSupport.term(inner, b)) }
}

extension PredicateExpressions.OptionalFlatMap: SQLTranslatable {
    func sqlTerm(_ b: SQLQueryBuilder) throws -> SQLTerm {
        b.variables[variable.key] = b.unwrap(try PredicateSupport.term(wrapped, b))
        return try PredicateSupport.term(transform, b)
    }
}

extension PredicateExpressions.Equal: SQLTranslatable {
    func sqlTerm(_ b: SQLQueryBuilder) throws -> SQLTerm {
        try equality(PredicateSupport.term(lhs, b), PredicateSupport.term(rhs, b), b.dialect.nullSafeEqual, b)
    }
}

extension PredicateExpressions.NotEqual: SQLTranslatable {
    func sqlTerm(_ b: SQLQueryBuilder) throws -> SQLTerm {
        try equality(PredicateSupport.term(lhs, b), PredicateSupport.term(rhs, b), b.dialect.nullSafeNotEqual, b)
    }
}

private func equality(_ l: SQLTerm, _ r: SQLTerm, _ op: String, _ b: SQLQueryBuilder) throws -> SQLTerm {
    func operand(_ t: SQLTerm) throws -> String {
        if case .condition(let c) = t { return c }
        return try b.sql(t)
    }
    return .condition("(\(try operand(l)) \(op) \(try operand(r)))")
}

extension PredicateExpressions.Comparison: SQLTranslatable {
    func sqlTerm(_ b: SQLQueryBuilder) throws -> SQLTerm {
        let symbol =
            switch op {
            case .lessThan: "<"
            case .lessThanOrEqual: "<="
            case .greaterThan: ">"
            case .greaterThanOrEqual: ">="
            }
        return try infix(lhs, symbol, rhs, b, operands: b.sql)
    }
}

extension PredicateExpressions.Conjunction: SQLTranslatable {
    func sqlTerm(_ b: SQLQueryBuilder) throws -> SQLTerm { try infix(lhs, "AND", rhs, b, operands: b.condition) }
}

extension PredicateExpressions.Disjunction: SQLTranslatable {
    func sqlTerm(_ b: SQLQueryBuilder) throws -> SQLTerm { try infix(lhs, "OR", rhs, b, operands: b.condition) }
}

/// `(lhs op rhs)`, each side rendered by `operands` (as a value or as a condition).
private func infix(
    _ lhs: Any, _ op: String, _ rhs: Any, _ b: SQLQueryBuilder,
    operands: (SQLTerm) throws -> String
) throws -> SQLTerm {
    let l = try operands(PredicateSupport.term(lhs, b))
    let r = try operands(PredicateSupport.term(rhs, b))
    return .condition("(\(l) \(op) \(r))")
}

extension PredicateExpressions.Negation: SQLTranslatable {
    func sqlTerm(_ b: SQLQueryBuilder) throws -> SQLTerm {
        .condition("(NOT \(try b.condition(PredicateSupport.term(wrapped, b))))")
    }
}

extension PredicateExpressions.SequenceContains: SQLTranslatable {
    func sqlTerm(_ b: SQLQueryBuilder) throws -> SQLTerm {
        let collection = try PredicateSupport.term(sequence, b)
        if case .toMany(let p, let owner) = collection {
            return .condition("(\(try b.sql(PredicateSupport.term(element, b))) IN (\(b.members(p, owner))))")
        }
        guard case .value(let constant) = collection else {
            throw StoreError.unsupportedPredicate("contains() on a column")
        }
        let item = try b.sql(PredicateSupport.term(element, b))
        let values = try SQLQueryBuilder.storeValues(constant)
        if values.isEmpty { return .condition(b.dialect.falseCondition) }
        return .condition("(\(item) IN (\(values.map(b.bind).joined(separator: ", "))))")
    }
}

extension PredicateExpressions.SequenceContainsWhere: SQLTranslatable {
    func sqlTerm(_ b: SQLQueryBuilder) throws -> SQLTerm {
        guard case .toMany(let p, let owner) = try PredicateSupport.term(sequence, b), !b.insideSubquery else {
            throw StoreError.unsupportedPredicate("contains(where:) on anything but a to-many relationship of the fetched entity")
        }
        let alias = b.subqueryAlias()
        b.variables[variable.key] = .entity(p.target, alias: alias, chain: [])
        b.insideSubquery = true
        defer { b.insideSubquery = false }
        let inner = try b.condition(PredicateSupport.term(test, b))
        return .condition(
            "(EXISTS (SELECT 1 FROM \(quote(p.target.name)) \(alias) WHERE \(alias).id IN (\(b.members(p, owner))) AND \(inner)))")
    }
}

extension PredicateExpressions.CollectionContainsCollection: SQLTranslatable {
    func sqlTerm(_ b: SQLQueryBuilder) throws -> SQLTerm {
        let text = try b.sql(PredicateSupport.term(base, b))
        return .condition("(\(b.dialect.position(of: try b.sql(PredicateSupport.term(other, b)), in: text)) > 0)")
    }
}

extension PredicateExpressions.SequenceStartsWith: SQLTranslatable {
    func sqlTerm(_ b: SQLQueryBuilder) throws -> SQLTerm {
        let text = try b.sql(PredicateSupport.term(base, b))
        return .condition("(\(b.dialect.position(of: try b.sql(PredicateSupport.term(prefix, b)), in: text)) = 1)")
    }
}
