extension ObjectContext {
    /// Saves as ``save()`` does, but waits for the store's write lock off
    /// the main actor: while another process holds it, the UI keeps drawing
    /// and taking keys, and the save goes ahead as soon as the lock is free.
    ///
    /// What it saves is what the context holds once the lock is obtained:
    /// changes made while it waited go into the same transaction. It waits
    /// at most the container's busy timeout in all, then throws
    /// ``StoreError/busy(path:)``; on any failure nothing is written and every
    /// change (old and new) stays in the context. If another save of this
    /// context wrote everything meanwhile, it returns without writing. On a
    /// background context, or an in-memory store, it is ``save()``.
    ///
    ///     Task { @MainActor in
    ///         do { try await context.saveWhenWritable() } catch { status = "Not saved: \(error)" }
    ///     }
    @MainActor
    public func saveWhenWritable() async throws {
        guard coordinator.canWaitOffThread else { return try save() }
        let deadline = coordinator.deadlineFromNow
        while hasChanges {
            try await coordinator.waitForWriteLock(until: deadline)
            // A synchronous save on the main actor may have used the open transaction meanwhile.
            guard coordinator.isWriteOpen else { continue }
            defer { coordinator.abandonWrite() }  // when nothing was written (or validation failed)
            try save()
            return
        }
    }
}

extension ObjectContext {
    /// Runs `body` inside one write transaction and saves, as
    /// ``performWrite(_:)`` does, but waits for the store's write lock off
    /// the main actor: while another process holds it, the UI keeps drawing
    /// and taking keys. `body` runs on the main actor once the lock is held,
    /// so what it reads is the latest committed state.
    ///
    /// It waits at most the container's busy timeout, then throws
    /// ``StoreError/busy(path:)`` without running `body`. If `body` throws
    /// or the save fails, nothing is written and the context keeps its
    /// changes. On a background context, or an in-memory store, it is
    /// ``performWrite(_:)``.
    ///
    ///     Task { @MainActor in
    ///         do {
    ///             try await context.performWriteWhenWritable { context.delete(planet) }
    ///         } catch {
    ///             context.rollback()
    ///         }
    ///     }
    @MainActor
    public func performWriteWhenWritable<T>(_ body: () throws -> T) async throws -> T {
        guard coordinator.canWaitOffThread, writeTransaction == nil else { return try performWrite(body) }
        let transaction = try await coordinator.openWriteTransactionOffThread()
        // Nothing else ran `performWrite` meanwhile on this actor (it is synchronous), so none is open.
        let (result, saved) = try write(in: transaction, body)
        if let (pending, permanent) = saved { finishSave(pending, permanent: permanent) }
        return result
    }
}
