import Synchronization

/// A value owned by its lock: the only way to it is ``withLock(_:)``.
///
/// `Synchronization.Mutex` owns its value too, but it takes the value as
/// `sending` and hands results out as `sending`, which a connection made
/// and prepared by the code that then shares it cannot prove. This type
/// makes the same promise — nothing reaches the value outside the lock — in
/// one small place instead of in every class that guards state.
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
        try lock.withLock { _ in try body(&value) }
    }
}
