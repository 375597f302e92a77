#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Moves a run of values within one array with one uniqueness check and one
/// `memmove`, not a check and a bounds check a value: the B+ trees' leaves
/// and inner nodes open and close gaps this way.
///
/// Unsafe: a raw copy of memory. Sound because the values are
/// `BitwiseCopyable` (moving their bytes moves them, no retain or release),
/// both ranges are checked against the array's count in every build, and
/// `memmove` is made for ranges that overlap.
///
/// ```swift
/// var slots: ContiguousArray<Int32> = [1, 2, 3, 4]
/// UnsafeBlockMove.shift(&slots, from: 1, to: 0, count: 3)   // [2, 3, 4, 4]
/// ```
enum UnsafeBlockMove {
    @inline(__always) static func shift<T: BitwiseCopyable>(
        _ array: inout ContiguousArray<T>, from source: Int, to destination: Int, count: Int
    ) {
        guard count > 0 else { return }
        precondition(
            source >= 0 && destination >= 0 && max(source, destination) + count <= array.count, "UnsafeBlockMove: shift out of range")
        array.withUnsafeMutableBufferPointer { buffer in
            let base = buffer.baseAddress!
            _ = memmove(base + destination, base + source, count * MemoryLayout<T>.stride)
        }
    }
}
