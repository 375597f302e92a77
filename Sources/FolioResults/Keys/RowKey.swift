import Foundation
import FolioStore

/// A row's sort key as the controller keeps it: the sort values after the
/// section key (equal within a section, so not repeated), each with its
/// direction. One value, the common case, is stored inline.
///
/// ```swift
/// let key = RowKey([.text("Lion")], ascending: [true])
/// key < RowKey([.text("Zebra")], ascending: [true])   // true
/// ```
struct RowKey: Comparable {
    enum Storage {
        case empty
        case one(StoreValue, ascending: Bool)
        case many([StoreValue], descending: UInt64)
    }

    var storage: Storage

    init(_ values: ArraySlice<StoreValue>, ascending: ArraySlice<Bool>) {
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
    }

    /// The values, for messages and the cache.
    var values: [StoreValue] {
        switch storage {
        case .empty: []
        case .one(let value, _): [value]
        case .many(let values, _): values
        }
    }

    static func compare(_ a: RowKey, _ b: RowKey) -> ComparisonResult {
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

    static func < (a: RowKey, b: RowKey) -> Bool { compare(a, b) == .orderedAscending }
    static func == (a: RowKey, b: RowKey) -> Bool { compare(a, b) == .orderedSame }
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
