import Foundation

/// A value as the store keeps it: one of SQLite's storage classes.
///
/// Every attribute converts to and from a `StoreValue`; sort keys handed to
/// the layers above are arrays of them, compared with
/// ``StoreValue/compare(_:_:)`` exactly as SQL orders them.
///
///     let v: StoreValue = .text("Mars")
///     StoreValue.compare(v, .null) == .orderedDescending   // true
public enum StoreValue: Sendable, Hashable, CustomStringConvertible {
    /// SQL `NULL`: a missing optional value or relationship.
    case null
    /// A 64-bit integer (also `Bool` as 0 or 1, and relationship row IDs).
    case integer(Int64)
    /// A double-precision float (also `Date` as seconds since 1970).
    case real(Double)
    /// UTF-8 text.
    case text(String)
    /// Raw bytes.
    case blob(Data)

    /// A short rendering for messages, e.g. `'Mars'` or `42`.
    public var description: String {
        switch self {
        case .null: "nil"
        case .integer(let v): String(v)
        case .real(let v): String(v)
        case .text(let v): "'\(v)'"
        case .blob(let v): "<\(v.count) bytes>"
        }
    }

    /// Whether this is `.null`.
    ///
    ///     StoreValue.null.isNull   // true
    public var isNull: Bool { if case .null = self { true } else { false } }

    /// Orders two values the way SQLite's `ORDER BY` does with the BINARY
    /// collation: NULL first, then numbers (integers and reals compared by
    /// value), then text by its UTF-8 bytes, then blobs by their bytes.
    ///
    ///     StoreValue.compare(.integer(2), .real(2.5)) == .orderedAscending   // true
    ///
    /// - Complexity: O(m) where m is the length of the shorter text or blob.
    public static func compare(_ a: StoreValue, _ b: StoreValue) -> ComparisonResult {
        switch (a, b) {
        case (.null, .null): return .orderedSame
        case (.null, _): return .orderedAscending
        case (_, .null): return .orderedDescending
        case (.integer(let x), .integer(let y)): return order(x, y)
        case (.integer(let x), .real(let y)): return order(Double(x), y)
        case (.real(let x), .integer(let y)): return order(x, Double(y))
        case (.real(let x), .real(let y)): return order(x, y)
        case (.integer, _), (.real, _): return .orderedAscending
        case (_, .integer), (_, .real): return .orderedDescending
        case (.text(let x), .text(let y)): return compareText(x, y)
        case (.text, .blob): return .orderedAscending
        case (.blob, .text): return .orderedDescending
        case (.blob(let x), .blob(let y)): return compareBytes(x, y)
        }
    }

    /// Equal as the store's order has them: texts by their UTF-8 bytes, as
    /// SQL's `=` and ``compare(_:_:)`` see them, not by Swift's canonical
    /// equivalence (which makes "\u{E9}" equal "e\u{301}" and would merge two
    /// rows the server keeps apart, e.g. two sections into one).
    ///
    ///     StoreValue.text("\u{E9}") == .text("e\u{301}")   // false
    public static func == (a: StoreValue, b: StoreValue) -> Bool {
        switch (a, b) {
        case (.null, .null): true
        case (.integer(let x), .integer(let y)): x == y
        case (.real(let x), .real(let y)): x == y
        case (.text(let x), .text(let y)): x.utf8.count == y.utf8.count && compareText(x, y) == .orderedSame
        case (.blob(let x), .blob(let y)): x == y
        default: false
        }
    }

    /// Hashes texts by their UTF-8 bytes, to agree with ``==(_:_:)``.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0 as UInt8)
        case .integer(let v): hasher.combine(1 as UInt8); hasher.combine(v)
        case .real(let v): hasher.combine(2 as UInt8); hasher.combine(v)
        case .text(var v):
            hasher.combine(3 as UInt8)
            v.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        case .blob(let v): hasher.combine(4 as UInt8); hasher.combine(v)
        }
    }

    /// Compares two key tuples element by element; `ascending[i]` false
    /// reverses element `i`, as `ORDER BY ... DESC` does.
    ///
    ///     StoreValue.compare([.text("a"), .integer(1)], [.text("a"), .integer(2)], ascending: [true, false])
    ///     // .orderedDescending
    ///
    /// - Complexity: O(k) comparisons for k keys.
    public static func compare(_ a: [StoreValue], _ b: [StoreValue], ascending: [Bool]) -> ComparisonResult {
        for i in 0..<min(a.count, b.count) {
            let r = compare(a[i], b[i])
            if r != .orderedSame {
                let up = i < ascending.count ? ascending[i] : true
                return up ? r : (r == .orderedAscending ? .orderedDescending : .orderedAscending)
            }
        }
        return order(a.count, b.count)
    }

    private static func order<T: Comparable>(_ x: T, _ y: T) -> ComparisonResult {
        x < y ? .orderedAscending : (x == y ? .orderedSame : .orderedDescending)
    }

    /// Texts by their UTF-8 bytes: one `memcmp` over Swift's contiguous storage.
    private static func compareText(_ x: String, _ y: String) -> ComparisonResult {
        var x = x, y = y
        return x.withUTF8 { a in
            y.withUTF8 { b in
                let common = min(a.count, b.count)
                let r = common == 0 ? 0 : memcmp(a.baseAddress!, b.baseAddress!, common)
                if r != 0 { return r < 0 ? .orderedAscending : .orderedDescending }
                return a.count == b.count ? .orderedSame : (a.count < b.count ? .orderedAscending : .orderedDescending)
            }
        }
    }

    private static func compareBytes<S: Sequence>(_ x: S, _ y: S) -> ComparisonResult where S.Element == UInt8 {
        var i = x.makeIterator(), j = y.makeIterator()
        while true {
            switch (i.next(), j.next()) {
            case (nil, nil): return .orderedSame
            case (nil, _): return .orderedAscending
            case (_, nil): return .orderedDescending
            case (let p?, let q?): if p != q { return p < q ? .orderedAscending : .orderedDescending }
            }
        }
    }
}
