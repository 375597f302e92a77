import Dispatch

// Core Data's `perform` and `performAndWait`, the way into a background
// context's queue. On the view context they run on the main actor, where
// its holder already is.

extension ObjectContext {
    /// Runs `body` with this context where it works (a background context's
    /// queue; the main actor for the view context), processes the pending
    /// changes it made, and returns its result. The body gets the context as
    /// its argument and, being `@Sendable`, cannot capture another domain's
    /// objects; it returns values or object IDs, never objects.
    ///
    ///     let background = container.newBackgroundContext()
    ///     let count = try await background.perform { context in
    ///         try context.count(for: FetchRequest<Planet>())
    ///     }
    nonisolated(nonsending)
        public func perform<T: Sendable>(_ body: @escaping @Sendable (ObjectContext) throws -> T) async throws -> T
    {
        guard let queue else {
            defer { processPendingChanges() }
            return try body(self)
        }
        let handle = ContextHandle(context: self)
        return try await withCheckedThrowingContinuation { continuation in
            queue.async {
                let result = Result { try body(handle.context) }
                handle.context.processPendingChanges()
                continuation.resume(with: result)
            }
        }
    }

    /// Runs `body` with this context where it works and waits for it, then
    /// processes the pending changes it made. Inside another `perform` of
    /// the same context it runs at once.
    ///
    ///     let names = try background.performAndWait { context in
    ///         try context.fetch(FetchRequest<Planet>()).map(\.name)
    ///     }
    public func performAndWait<T: Sendable>(_ body: @Sendable (ObjectContext) throws -> T) rethrows -> T {
        guard let queue, DispatchQueue.getSpecific(key: Self.queueKey) != ObjectIdentifier(self) else {
            defer { processPendingChanges() }
            return try body(self)
        }
        return try queue.sync {
            defer { processPendingChanges() }
            return try body(self)
        }
    }

    /// Traps when a background context is used off its queue: the one
    /// misuse its type cannot stop (its holder calling it directly instead
    /// of through `perform`), found at the first store access or change.
    func requireConfinement() {
        guard let queue else { return }
        dispatchPrecondition(condition: .onQueue(queue))
    }

    static let queueKey = DispatchSpecificKey<ObjectIdentifier>()
}

/// Takes a context to its own queue for `perform`.
private struct ContextHandle: @unchecked Sendable {  // used only on the context's queue, while its caller awaits the result
    let context: ObjectContext
}
