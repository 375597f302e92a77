import Glibc

/// A value owned by its lock: the only way to it is ``withLock(_:)``.
///
/// `Synchronization.Mutex` owns its value too, but it takes the value as
/// `sending` and hands results out as `sending`, which a connection made
/// and prepared by the code that then shares it cannot prove. This type
/// makes the same promise — nothing reaches the value outside the lock — in
/// one small place instead of in every class that guards state. It is the
/// package's only lock, a pthread mutex: a thread that finds it taken
/// sleeps in the kernel at once, where `Mutex` spins five hundred
/// pauses first (on two cores, with more threads than cores, the holder is
/// often not running, and the spinner burns what it would need), and
/// ThreadSanitizer sees a pthread mutex hand the lock over, where it is
/// blind to `Mutex`'s kernel hand-over on Linux.
///
///     let connection = LockedValue<StoreBackend?>(nil)
///     let count = try connection.withLock { try $0!.count(plan) }
package final class LockedValue<Value>: @unchecked Sendable {  // `value` is reachable only inside `withLock`, under `mutex`
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var value: Value

    /// Takes `value` over: its maker uses it only through this lock from now on.
    ///
    ///     let counter = LockedValue(0)
    package init(_ value: Value) {
        self.value = value
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` on the value while holding the lock.
    ///
    ///     counter.withLock { $0 += 1 }
    package func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
