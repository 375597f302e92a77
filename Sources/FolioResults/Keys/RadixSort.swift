/// Sorts unsigned integers in place, eleven bits at a time from the lowest
/// (a least-significant-digit radix sort): a batch's IDs are sorted in a few
/// linear passes rather than O(n log n) comparisons. Only digits in which
/// some values differ get a pass, so the IDs of a million rows cost two.
/// Short arrays use the standard sort.
///
/// ```swift
/// var ids: [UInt64] = [42, 7, 1 << 62, 7]
/// radixSort(&ids)   // [7, 7, 42, 4611686018427387904]
/// ```
/// - Complexity: O(n) per pass, at most six passes.
package func radixSort(_ values: inout [UInt64]) {
    radixSort(&values) { $0 }
}

/// ``radixSort(_:)-([UInt64])`` for records, by an unsigned key each (the
/// order of records with equal keys is not specified).
///
/// ```swift
/// var changes = [(path: UInt64(1 << 32 | 4), change: 0), (path: 3, change: 1)]
/// radixSort(&changes) { $0.path }   // the one at section 0 first
/// ```
package func radixSort<T: BitwiseCopyable>(_ records: inout [T], by key: (T) -> UInt64) {
    guard records.count >= 512 else { return records.sort { key($0) < key($1) } }
    records.withUnsafeMutableBufferPointer { UnsafeRadixSort.sort($0, by: key) }
}

/// ``radixSort(_:)-([UInt64])`` for signed integers.
///
/// ```swift
/// var ids: [Int64] = [3, -1, 2]
/// radixSort(&ids)   // [-1, 2, 3]
/// ```
package func radixSort(_ values: inout [Int64]) {
    guard values.count >= 512 else { return values.sort() }
    values.withUnsafeMutableBufferPointer { signed in
        signed.withMemoryRebound(to: UInt64.self) { values in
            // With the sign bit flipped, unsigned order is signed order.
            for i in values.indices { values[i] ^= 1 << 63 }
            UnsafeRadixSort.sort(values) { $0 }
            for i in values.indices { values[i] ^= 1 << 63 }
        }
    }
}

/// The radix sort's passes over raw buffers.
///
/// Unsafe: no bounds checks in a release build's passes, and records moved between the
/// caller's buffer and a scratch buffer by bit copy. Sound because the
/// records are `BitwiseCopyable` (a copy needs no retain), the scratch
/// buffer holds `n` records and is freed on the way out, and each pass
/// writes every slot once (the counts' prefix sums partition `0..<n`).
/// Debug builds check that the records come out in order.
private enum UnsafeRadixSort {
    static func sort<T: BitwiseCopyable>(_ source: UnsafeMutableBufferPointer<T>, by key: (T) -> UInt64) {
        passes(source, by: key)
        assert(zip(source, source.dropFirst()).allSatisfy { key($0) <= key($1) }, "UnsafeRadixSort: out of order")
    }

    private static func passes<T: BitwiseCopyable>(_ source: UnsafeMutableBufferPointer<T>, by key: (T) -> UInt64) {
        let n = source.count
        let bits = 11, buckets = 1 << bits, mask = UInt64(buckets - 1)
        // Only the digits where some keys differ need a pass.
        var some: UInt64 = 0, every = UInt64.max
        for record in source {
            some |= key(record)
            every &= key(record)
        }
        let differing = some ^ every
        let scratch = UnsafeMutableBufferPointer<T>.allocate(capacity: n)
        defer { scratch.deallocate() }
        var counts = [Int](repeating: 0, count: buckets)
        counts.withUnsafeMutableBufferPointer { counts in
            var from = source, to = scratch
            for shift in stride(from: UInt64(0), to: 64, by: bits) where (differing >> shift) & mask != 0 {
                counts.update(repeating: 0)
                for record in from { counts[Int((key(record) >> shift) & mask)] += 1 }
                var start = 0
                for i in 0..<buckets {
                    let count = counts[i]
                    counts[i] = start
                    start += count
                }
                for record in from {
                    let digit = Int((key(record) >> shift) & mask)
                    to.initializeElement(at: counts[digit], to: record)
                    counts[digit] += 1
                }
                swap(&from, &to)
            }
            // An odd number of passes left the records in the scratch buffer.
            if from.baseAddress != source.baseAddress { _ = source.update(fromContentsOf: from) }
        }
    }
}
