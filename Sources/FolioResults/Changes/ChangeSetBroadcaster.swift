import FolioLocking

/// Hands each change set to every live `AsyncStream` made from it; a stream
/// that ends (its task cancelled or its consumer gone) is dropped.
///
/// ```swift
/// let broadcaster = ChangeSetBroadcaster<ResultsChangeSet<Int, String>>()
/// let stream = broadcaster.makeStream()
/// broadcaster.yield(changeSet)
/// ```
package final class ChangeSetBroadcaster<Element: Sendable>: Sendable {
    private let state = LockedValue<(next: Int, continuations: [Int: AsyncStream<Element>.Continuation])>((0, [:]))

    /// Creates a broadcaster with no listeners.
    ///
    /// ```swift
    /// let broadcaster = ChangeSetBroadcaster<Int>()
    /// ```
    package init() {}

    /// A new stream that receives every later element.
    ///
    /// ```swift
    /// for await changes in broadcaster.makeStream() { print(changes) }
    /// ```
    package func makeStream() -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream.makeStream(of: Element.self, bufferingPolicy: .unbounded)
        let key = state.withLock { state in
            let key = state.next
            state.next += 1
            state.continuations[key] = continuation
            return key
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.continuations.removeValue(forKey: key) }
        }
        return stream
    }

    /// True when at least one stream is listening.
    ///
    /// ```swift
    /// if broadcaster.hasListeners { broadcaster.yield(changes) }
    /// ```
    package var hasListeners: Bool { state.withLock { !$0.continuations.isEmpty } }

    /// Sends an element to every live stream.
    ///
    /// ```swift
    /// broadcaster.yield(changes)
    /// ```
    package func yield(_ element: Element) {
        for continuation in state.withLock({ Array($0.continuations.values) }) { continuation.yield(element) }
    }

    /// Ends every stream.
    ///
    /// ```swift
    /// broadcaster.finish()
    /// ```
    package func finish() {
        for continuation in state.withLock({ Array($0.continuations.values) }) { continuation.finish() }
    }

    deinit { finish() }
}
