/// A check an attribute's value must pass before a save writes anything.
/// The closure returns nil when the value is fine, or the reason it is not.
///
///     .attribute(\Location.latitude, "latitude", rules: [.range(-90...90)])
///     .attribute(\Planet.name, "name", rules: [.notEmpty, .custom { $0 == "Pluto" ? "not a planet" : nil }])
public struct ValidationRule<Value>: Sendable {
    let check: @Sendable (Value) -> String?

    /// A rule from a closure returning the failure reason, or nil when valid.
    ///
    ///     .custom { $0 % 2 == 0 ? nil : "must be even" }
    public static func custom(_ check: @escaping @Sendable (Value) -> String?) -> ValidationRule {
        ValidationRule(check: check)
    }
}

extension ValidationRule where Value: Comparable & Sendable {
    /// The value must lie in `range`.
    ///
    ///     .range(-90.0...90.0)
    public static func range(_ range: ClosedRange<Value>) -> ValidationRule {
        ValidationRule { range.contains($0) ? nil : "\($0) is outside \(range.lowerBound)...\(range.upperBound)" }
    }
}

extension ValidationRule where Value == String {
    /// The string must not be empty.
    ///
    ///     .notEmpty
    public static var notEmpty: ValidationRule { ValidationRule { $0.isEmpty ? "must not be empty" : nil } }

    /// The string's length in characters must lie in `range`.
    ///
    ///     .length(1...40)
    public static func length(_ range: ClosedRange<Int>) -> ValidationRule {
        ValidationRule { range.contains($0.count) ? nil : "length \($0.count) is outside \(range.lowerBound)...\(range.upperBound)" }
    }
}
