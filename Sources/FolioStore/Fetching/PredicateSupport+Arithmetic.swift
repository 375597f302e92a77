import Foundation

// `#Predicate` spells a negative literal as a unary minus applied to a
// positive one (`-1` is `UnaryMinus(Value(1))`), so negation is translated
// wherever a number may stand: constants fold to a negative bound value,
// columns and sums become `(- x)`.

extension PredicateExpressions.UnaryMinus: SQLTranslatable {
    func sqlTerm(_ b: SQLQueryBuilder) throws -> SQLTerm {
        let inner = try PredicateSupport.term(wrapped, b)
        if case .value(let v) = inner { return .value(try negatedConstant(v)) }
        return .column("(- \(try b.sql(inner)))")
    }
}

extension PredicateExpressions.Arithmetic: SQLTranslatable {
    func sqlTerm(_ b: SQLQueryBuilder) throws -> SQLTerm {
        let symbol =
            switch op {
            case .add: "+"
            case .subtract: "-"
            case .multiply: "*"
            }
        return .column("(\(try b.sql(PredicateSupport.term(lhs, b))) \(symbol) \(try b.sql(PredicateSupport.term(rhs, b))))")
    }
}

/// `-v` for a numeric constant; the one integer with no negation (`Int.min`) is a clear error, not a trap.
private func negatedConstant(_ v: Any) throws -> Any {
    func integer<I: FixedWidthInteger & SignedInteger>(_ i: I) -> I? {
        let (result, overflow) = I.zero.subtractingReportingOverflow(i)
        return overflow ? nil : result
    }
    func real<F: FloatingPoint>(_ f: F) -> F { -f }
    switch v {
    case let i as any FixedWidthInteger & SignedInteger:
        guard let n = integer(i) else { throw StoreError.unsupportedPredicate("the negation of \(i), which overflows") }
        return n
    case let f as any FloatingPoint: return real(f)
    case let d as Decimal: return -d
    default: throw StoreError.unsupportedPredicate("the negation of the constant \(v) of type \(type(of: v))")
    }
}
