import FolioStore

/// A section's identity and place: the section key path's value, ordered in
/// the first sort descriptor's direction. Integral reals are kept as integers
/// so that equal values hash alike.
///
/// ```swift
/// SectionKey(.integer(2), ascending: true) < SectionKey(.integer(3), ascending: true)   // true
/// ```
struct SectionKey: Hashable, Comparable, Sendable {
    let value: StoreValue
    let ascending: Bool

    init(_ value: StoreValue, ascending: Bool) {
        if case .real(let d) = value, d == d.rounded(), abs(d) < 9e15 {
            self.value = .integer(Int64(d))
        } else {
            self.value = value
        }
        self.ascending = ascending
    }

    static func < (a: SectionKey, b: SectionKey) -> Bool {
        let r = StoreValue.compare(a.value, b.value)
        return a.ascending ? r == .orderedAscending : r == .orderedDescending
    }

    /// The section's name, as Core Data forms it: the value's text, "" for nil.
    var name: String {
        switch value {
        case .null: ""
        case .integer(let v): String(v)
        case .real(let v): String(v)
        case .text(let v): v
        case .blob(let v): v.base64EncodedString()
        }
    }
}
