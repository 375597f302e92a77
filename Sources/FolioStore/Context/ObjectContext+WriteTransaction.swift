import Dispatch

extension ObjectContext {
    /// Runs `body` inside one write transaction of the store and saves what
    /// the context holds unsaved when it returns, before the transaction ends.
    ///
    /// While `body` runs no other connection or process can commit, and what
    /// this context reads (fetches, counts, faults, relationships) is the
    /// latest committed state: objects without unsaved changes are refreshed
    /// first. So a decision taken from what `body` reads, such as "create the
    /// classification unless one has this order" or "append after the last
    /// position", still holds when the save lands; uniqueness and ordering
    /// are decided inside the transaction. Waiting for the write lock takes
    /// up to the container's busy timeout, then throws ``StoreError/busy(path:)``.
    ///
    /// If `body` throws, or the save fails, nothing is written and the
    /// context keeps its changes (as after a failed ``save()``). Call
    /// neither `save()` nor `performWrite` inside `body`, and use no other
    /// context of the same container there.
    ///
    ///     let planet = try context.performWrite {
    ///         var last = FetchRequest<Planet>(sortBy: [SortDescriptor(\.position, order: .reverse)])
    ///         last.fetchLimit = 1
    ///         let p = Planet(context: context)
    ///         p.position = (try context.fetch(last).first?.position ?? -1) + 1
    ///         return p
    ///     }
    public func performWrite<T>(_ body: () throws -> T) throws -> T {
        precondition(writeTransaction == nil, "performWrite inside performWrite on the same context")
        let (result, saved) =
            coordinator.isInMemory
            // One connection: keep every other context off it until the transaction ends.
            ? try coordinator.withBackend { try write(in: try $0.beginWriteTransaction(), body) }
            // A connection of its own: other contexts keep reading while this one waits and writes.
            : try write(in: try coordinator.openWriteTransaction(), body)
        if let (pending, permanent) = saved { finishSave(pending, permanent: permanent) }
        return result
    }

    func write<T>(in transaction: StoreBackend, _ body: () throws -> T) throws -> (T, (PendingSave, [ObjectID])?) {
        writeTransaction = transaction
        defer { writeTransaction = nil }
        var ended = false
        do {
            refreshAllObjects()
            let result = try body()
            var saved: (PendingSave, [ObjectID])?
            if let pending = try prepareSave() {
                saved = try commitResolvingConflicts(pending) { try transaction.commit($0, author: coordinator.author) }
            }
            ended = true
            try transaction.endWriteTransaction(commit: true)
            return (result, saved)
        } catch {
            if !ended { try? transaction.endWriteTransaction(commit: false) }
            throw error
        }
    }

    /// Runs `body` with the store: the write transaction's connection inside
    /// ``performWrite(_:)``, otherwise the coordinator's under its lock.
    func withStore<T>(_ body: (StoreBackend) throws -> T) throws -> T {
        requireConfinement()
        defer { noteStoreUse() }
        return try onStore(body)
    }

    /// ``withStore(_:)`` for a read of the rows `ids` alone (by ID, their
    /// own columns only): it notes when those rows were read, not the store
    /// as a whole, so the rows heard for other objects stay in use. A merge
    /// that reads its change set's rows (their heard rows were too old)
    /// then leaves the next change set's heard rows usable, where noting a
    /// read of the whole store made every merge after it read the store too.
    func withStore<T>(readingRows ids: some Collection<ObjectID>, _ body: (StoreBackend) throws -> T) throws -> T {
        requireConfinement()
        defer {
            if rowsReadAt.count + ids.count > Self.rowsReadLimit {
                noteStoreUse()  // as a read of the whole store
            } else {
                let now = DispatchTime.now().uptimeNanoseconds
                for id in ids { rowsReadAt[id] = now }
            }
        }
        return try onStore(body)
    }

    /// Notes a use of the whole store, now: heard rows read before it are
    /// too old (see ``currentHeardRows``), and the rows noted one by one are forgotten.
    func noteStoreUse() {
        lastStoreUse = DispatchTime.now().uptimeNanoseconds
        if !rowsReadAt.isEmpty { rowsReadAt.removeAll(keepingCapacity: true) }
    }

    private func onStore<T>(_ body: (StoreBackend) throws -> T) throws -> T {
        if let transaction = writeTransaction { return try body(transaction) }
        return try coordinator.withBackend(body)
    }

    /// The most rows ``withStore(readingRows:_:)`` notes one by one.
    static let rowsReadLimit = 100_000

    /// Frees the store connection's cached pages, so that memory measured
    /// next counts only what the caller builds (the benchmark's resident bytes a row).
    package func releaseStoreCache() throws { try withStore { $0.releaseCachedPages() } }
}
