import Foundation

/// Gives the allocator's free pages back to the system (glibc's
/// `malloc_trim`). A search builds and drops structures the size of its
/// results; glibc keeps freed memory in the middle of its heap resident,
/// so without this a cleared search left the process tens of megabytes
/// bigger. Found at run time, so that another C library only skips it.
///
/// ```swift
/// FreedMemory.giveBack()
/// ```
enum FreedMemory {
    private typealias Trim = @convention(c) (Int) -> Int32

    private static let trim: Trim? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return nil }
        return unsafeBitCast(symbol, to: Trim.self)
    }()

    /// Where big structures are freed apart from the caller, one after another.
    static let apart = DispatchQueue(label: "FolioResults.FreedMemory.apart", qos: .utility)

    /// Returns the free pages of every heap to the system, once what is
    /// being freed apart is freed.
    /// - Complexity: O(h) for the h pages of the heaps.
    static func giveBack() {
        apart.sync {}
        _ = trim?(0)
    }
}
