import Foundation

/// A lock with a closure helper.
final class NSLockBox: @unchecked Sendable {
    private let lock = NSLock()
    func with<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}
