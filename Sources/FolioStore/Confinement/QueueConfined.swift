import Dispatch

/// A stored property that only code running on one serial queue may use.
///
/// Debug builds check every read and write with `dispatchPrecondition`, so a
/// use from another thread stops at the line that made it instead of racing
/// in silence; release builds pay nothing. A class whose mutable state is all
/// `@QueueConfined` may then be `@unchecked Sendable` with that as its reason.
///
///     final class Poller: @unchecked Sendable {  // mutable state is @QueueConfined to `queue`
///         private let queue: DispatchQueue
///         @QueueConfined private var position: Int64
///         init() {
///             let queue = DispatchQueue(label: "poller")
///             self.queue = queue
///             _position = QueueConfined(wrappedValue: 0, on: queue)
///         }
///     }
@propertyWrapper
package struct QueueConfined<Value> {
    private let queue: DispatchQueue
    private var value: Value

    /// A value confined to `queue`.
    ///
    ///     _count = QueueConfined(wrappedValue: 0, on: queue)
    package init(wrappedValue: Value, on queue: DispatchQueue) {
        self.queue = queue
        value = wrappedValue
    }

    package var wrappedValue: Value {
        get {
            checkQueue()
            return value
        }
        _modify {
            checkQueue()
            yield &value
        }
    }

    /// The value without the check, for the owner's `deinit`: no other
    /// reference to the owner exists then, so nothing can race it.
    ///
    ///     deinit { _timer.valueInDeinit?.cancel() }
    package var valueInDeinit: Value { value }

    @inline(__always)
    private func checkQueue() {
        #if DEBUG
            dispatchPrecondition(condition: .onQueue(queue))
        #endif
    }
}
