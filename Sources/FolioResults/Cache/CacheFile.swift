import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// An open results cache file, shared by the relaunch that shows from it
/// and the task that loads its whole order: the descriptor closes when the
/// last of them lets go, so a read never meets a closed or reused number.
/// Reads are positioned (`pread`), so they need no lock.
final class CacheFile: Sendable {
    let descriptor: Int32
    /// Set when nobody wants the order any more, so a load under way stops early.
    private let abandoned = Atomic<Bool>(false)

    init(descriptor: Int32) { self.descriptor = descriptor }

    deinit { close(descriptor) }

    var isAbandoned: Bool { abandoned.load(ordering: .relaxed) }

    func abandon() { abandoned.store(true, ordering: .relaxed) }

    /// Exactly `count` bytes at `offset`, or nil.
    func read(at offset: Int, count: Int) -> [UInt8]? {
        CacheLayout.read(descriptor, at: offset, count: count)
    }

    /// The file's size, or nil.
    var size: Int? {
        var status = stat()
        return fstat(descriptor, &status) == 0 ? Int(status.st_size) : nil
    }
}
