/// A set of row IDs for one membership test per row: a bitmap over the ID
/// range when the IDs are dense (as SQLite's rowids are), a hash set otherwise.
///
/// ```swift
/// let members = RowIDSet([3, 4, 9])
/// members.contains(4)   // true
/// ```
struct RowIDSet {
    private var bits: [UInt64] = []
    private var low: Int64 = 0
    private var hashed: Set<Int64>?

    /// - Complexity: O(n + range / 64).
    init(_ ids: [Int64]) {
        guard let minimum = ids.min(), let maximum = ids.max() else { return }
        let span = maximum - minimum + 1
        // Dense enough that the bitmap is no bigger than a hash set would be.
        guard span / 64 <= Int64(ids.count) * 2 else {
            hashed = Set(ids)
            return
        }
        low = minimum
        bits = Array(repeating: 0, count: Int(span / 64) + 1)
        for id in ids {
            let offset = Int(id - minimum)
            bits[offset >> 6] |= 1 << UInt64(offset & 63)
        }
    }

    /// - Complexity: O(1).
    func contains(_ id: Int64) -> Bool {
        if let hashed { return hashed.contains(id) }
        let offset = id - low
        guard offset >= 0, offset >> 6 < Int64(bits.count) else { return false }
        return bits[Int(offset >> 6)] & (1 << UInt64(offset & 63)) != 0
    }
}
