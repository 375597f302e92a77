import FolioStore
import Foundation

/// A row's sort key as the controller keeps it: the sort values after the
/// section key (equal within a section, so not repeated), each with its
/// direction. One value, the common case, is stored inline.
///
/// Each key also carries its first value's ``lead``: 63 bits that order as
/// the value does in its direction, so two keys whose leads differ compare
/// as one integer comparison, and only equal leads read the values.
///
/// ```swift
/// let key = RowKey([.text("Lion")], ascending: [true])
/// key < RowKey([.text("Zebra")], ascending: [true])   // true
/// ```
package struct RowKey: Comparable, Sendable {
    enum Storage {
        case empty
        case one(StoreValue, ascending: Bool)
        case many([StoreValue], descending: UInt64)
    }

    var storage: Storage
    /// The first value's leading bits in its direction's order, or
    /// ``RowKey/noLead`` when they cannot be trusted (NaN) or there is no value.
    let lead: UInt64

    package init(_ values: ArraySlice<StoreValue>, ascending: ArraySlice<Bool>) {
        precondition(values.count == ascending.count, "RowKey: \(values.count) values for \(ascending.count) sort descriptors")
        switch values.count {
        case 0: storage = .empty
        case 1: storage = .one(values.first!, ascending: ascending.first!)
        default:
            precondition(values.count <= 64, "RowKey: more than 64 sort descriptors")
            var descending: UInt64 = 0
            for (i, up) in ascending.enumerated() where !up { descending |= 1 << UInt64(i) }
            storage = .many(Array(values), descending: descending)
        }
        lead = values.first.map { Self.lead(of: $0, ascending: ascending.first!) } ?? Self.noLead
    }

    /// A key of one value, the common case, without a slice to build it from.
    init(one value: StoreValue, ascending: Bool) {
        storage = .one(value, ascending: ascending)
        lead = Self.lead(of: value, ascending: ascending)
    }

    init(_ storage: Storage, lead: UInt64) {
        self.storage = storage
        self.lead = lead
    }

    /// The values, for messages and the cache.
    package var values: [StoreValue] {
        switch storage {
        case .empty: []
        case .one(let value, _): [value]
        case .many(let values, _): values
        }
    }

    package static func compare(_ a: RowKey, _ b: RowKey) -> ComparisonResult {
        // Unequal leads decide; NaN's (no lead) sets the top bit, so it never does.
        if a.lead != b.lead && (a.lead | b.lead) & noLead == 0 {
            return a.lead < b.lead ? .orderedAscending : .orderedDescending
        }
        return compareValues(a, b)
    }

    /// The comparison by the values alone, as the lead must agree with.
    package static func compareValues(_ a: RowKey, _ b: RowKey) -> ComparisonResult {
        switch (a.storage, b.storage) {
        case let (.one(x, up), .one(y, _)):
            let r = StoreValue.compare(x, y)
            return up ? r : r.reversed
        case let (.many(xs, descending), .many(ys, _)):
            for i in 0..<min(xs.count, ys.count) {
                let r = StoreValue.compare(xs[i], ys[i])
                if r != .orderedSame { return descending & (1 << UInt64(i)) == 0 ? r : r.reversed }
            }
            return .orderedSame
        default:
            return .orderedSame
        }
    }

    package static func < (a: RowKey, b: RowKey) -> Bool { compare(a, b) == .orderedAscending }
    package static func == (a: RowKey, b: RowKey) -> Bool { compare(a, b) == .orderedSame }
}

extension RowKey {
    /// The lead of a key that has none to trust: it decides nothing.
    static var noLead: UInt64 { 1 << 63 }

    /// 63 bits that never order two values against ``StoreValue/compare(_:_:)``:
    /// 2 bits of storage class (null, number, text, blob, as SQL orders them),
    /// then 61 of the value: a number's order-preserving double bits, a text's
    /// or blob's first 7 bytes. Equal leads say nothing; unequal ones decide.
    static func lead(of value: StoreValue, ascending: Bool) -> UInt64 {
        let bits: UInt64
        switch value {
        case .null: bits = 0
        case .integer(let x): bits = 1 << 61 | orderedBits(Double(x)) >> 3
        case .real(let x):
            if x.isNaN { return noLead }
            bits = 1 << 61 | orderedBits(x) >> 3
        case .text(let s): bits = 2 << 61 | (s.utf8.withContiguousStorageIfAvailable { prefix($0) } ?? prefix(s.utf8))
        case .blob(let d): bits = 3 << 61 | prefix(d)
        }
        return ascending ? bits : ~bits & ~noLead
    }

    /// A double's bits, ordered as unsigned integers as the doubles are (-0 as 0).
    private static func orderedBits(_ x: Double) -> UInt64 {
        let bits = (x == 0 ? 0.0 : x).bitPattern
        return bits >> 63 == 1 ? ~bits : bits | 1 << 63
    }

    /// The first 7 bytes, big-endian, zero-padded, in the low 56 of 61 bits:
    /// a shorter value pads with zeros and so never leads a longer one it prefixes.
    private static func prefix<C: Collection>(_ bytes: C) -> UInt64 where C.Element == UInt8 {
        var bits: UInt64 = 0
        var count = 0
        for byte in bytes.prefix(7) {
            bits = bits << 8 | UInt64(byte)
            count += 1
        }
        return bits << (8 * UInt64(7 - count) + 5)
    }
}

extension ComparisonResult {
    var reversed: ComparisonResult {
        switch self {
        case .orderedAscending: .orderedDescending
        case .orderedDescending: .orderedAscending
        case .orderedSame: .orderedSame
        }
    }
}
