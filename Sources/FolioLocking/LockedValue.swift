import Synchronization

#if FOLIO_TSAN
    private import CFolioSanitizer
#endif

/// A value owned by its lock: the only way to it is ``withLock(_:)``.
///
/// `Synchronization.Mutex` owns its value too, but it takes the value as
/// `sending` and hands results out as `sending`, which a connection made
/// and prepared by the code that then shares it cannot prove. This type
/// makes the same promise — nothing reaches the value outside the lock — in
/// one small place instead of in every class that guards state. It is the
/// package's only lock: ThreadSanitizer cannot see `Mutex` hand a contended
/// lock over on Linux, so a sanitizer build (`scripts/sanitize`, which
/// defines `FOLIO_TSAN`) tells it here, and the normal build pays nothing.
///
///     let connection = LockedValue<StoreBackend?>(nil)
///     let count = try connection.withLock { try $0!.count(plan) }
package final class LockedValue<Value>: @unchecked Sendable {  // `value` is reachable only inside `withLock`, under `lock`
    private let lock = Mutex(())
    private var value: Value

    /// Takes `value` over: its maker uses it only through this lock from now on.
    ///
    ///     let counter = LockedValue(0)
    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` on the value while holding the lock.
    ///
    ///     counter.withLock { $0 += 1 }
    package func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        try lock.withLock { _ in
            #if FOLIO_TSAN
                let address = UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque())
                folio_tsan_acquire(address)
                defer { folio_tsan_release(address) }
            #endif
            return try body(&value)
        }
    }
}
