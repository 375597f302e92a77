import Synchronization

extension ObjectContext {
    /// Calls `body` with each change set this context sees: its processed
    /// unsaved changes (origin `.pending`), its saves (`.thisContext`, the
    /// new objects' permanent IDs), merges of another context's save
    /// (`.otherContext`) and another process's (`.otherProcess`); see
    /// ``ObjectContext`` for the protocol. Keep the token; releasing it stops the calls.
    ///
    ///     let token = context.observeChanges { changes in print(changes.inserted) }
    public func observeChanges(_ body: @escaping (ChangeSet) -> Void) -> ObservationToken {
        nextObserver += 1
        let key = nextObserver
        observers[key] = body
        return ObservationToken { [weak self] in self?.observers[key] = nil }
    }

    /// Calls `body` just before each save with the unsaved changes
    /// (inserted objects still carry temporary IDs).
    ///
    ///     let token = context.observeWillSave { pending in print(pending.updated) }
    public func observeWillSave(_ body: @escaping (ChangeSet) -> Void) -> ObservationToken {
        nextObserver += 1
        let key = nextObserver
        willSaveObservers[key] = body
        return ObservationToken { [weak self] in self?.willSaveObservers[key] = nil }
    }

    /// Calls `body` after each save of this context with everything it
    /// wrote (permanent IDs, origin `.thisContext`, and
    /// ``ChangeSet/permanentIDs`` for the new objects), as Core Data's
    /// `NSManagedObjectContextDidSave` notification does.
    ///
    ///     let token = context.observeDidSave { saved in print(saved.inserted) }
    public func observeDidSave(_ body: @escaping (ChangeSet) -> Void) -> ObservationToken {
        nextObserver += 1
        let key = nextObserver
        didSaveObservers[key] = body
        return ObservationToken { [weak self] in self?.didSaveObservers[key] = nil }
    }

    /// The change sets of ``observeChanges(_:)`` as an async sequence; the
    /// observation ends when the iterating task stops.
    ///
    ///     for await changes in context.changes() { print(changes) }
    public func changes() -> AsyncStream<ChangeSet> {
        let (stream, continuation) = AsyncStream<ChangeSet>.makeStream(bufferingPolicy: .unbounded)
        nextObserver += 1
        let key = nextObserver
        let finished = FinishFlag()
        continuation.onTermination = { _ in finished.set() }
        observers[key] = { [weak self] changes in
            if finished.isSet { self?.observers[key] = nil; return }
            continuation.yield(changes)
        }
        return stream
    }

    func notify(_ changes: ChangeSet) {
        for key in observers.keys.sorted() { observers[key]?(changes) }
    }

    /// Merges every change set that waits for this context (see ``WaitingMerges``).
    func mergeWaiting() {
        for (changes, heard) in waitingMerges.takeAll() { merge(changes, heard: heard) }
    }

    /// Brings another context's or process's saved changes into this context,
    /// then tells observers. Unchanged objects become faults (re-read on
    /// access); objects changed here keep their changes and adopt the rest.
    func merge(_ changes: ChangeSet) { merge(changes, insertedInto: nil) }

    /// ``merge(_:)``, where `insertedInto` names the entity of new rows whose IDs `changes` leaves
    /// out (a batch insert nothing else hears): its lists are visited still.
    func merge(_ changes: ChangeSet, insertedInto entity: EntityDescription?) {
        // Observers hear this context's own changes first, so every batch describes a state they can apply.
        if !changes.isEmpty { processPendingChanges() }
        if changes.isReload {
            reloadAll()
            notify(changes)
            return
        }
        for id in changes.deleted {
            guard let o = registry[id] else { continue }
            unregister(id)
            untouch(o)
            deletedElsewhere.keep(o)
        }
        for id in changes.updated.keys {
            guard let o = registry[id] else { continue }
            if o.hasChanges {
                reloadKeepingChanges(o)
            } else if !o.isFault {
                let known = o.version
                refresh(o, mergeChanges: false)
                // The row the change feed read for every container: loaded again without a read (never an older one).
                if let row = heardRow(o), row.version >= known { fill(o, row) }
            }
        }
        for id in changes.inserted where changes.updated[id] == nil { adoptIfNewer(id) }
        if !changes.isEmpty || entity != nil { forgetStoredMembership(after: changes, insertedInto: entity) }
        notify(changes)
    }

    /// Reported inserted, but held here already: this context read the row
    /// after its insert, and a report folds the row's later updates into its
    /// insert (see ``ChangeSet/merge(_:)``), so the row may be newer than what
    /// was read. It takes the stored row only then (those keys changed here
    /// stay): one read as it was is no reason to drop what it holds, which a
    /// later save must still be checked against.
    private func adoptIfNewer(_ id: ObjectID) {
        guard let o = registry[id], !o.isInsertedFlag, !o.isFault else { return }
        let stored = heardRow(o) ?? (try? withStore(readingRows: [id]) { try $0.rows(of: o.meta, ids: [id.rowID]) })?[id.rowID]
        guard let stored, stored.version > o.version else { return }
        if o.hasChanges { reloadKeepingChanges(o) } else { fill(o, stored) }
    }

    /// After history this context had not heard was trimmed: every
    /// unchanged object becomes a fault, changed ones adopt the stored
    /// values of the keys they did not change, and loaded to-many lists
    /// forget what they read (all re-read on access).
    private func reloadAll() {
        for o in registry.all where !o.isInsertedFlag {
            if o.hasChanges { reloadKeepingChanges(o) } else if !o.isFault { refresh(o, mergeChanges: false) }
        }
        forgetAllStoredMembership()
    }
}

/// Set once from any thread when an async stream's consumer goes away.
final class FinishFlag: Sendable {
    private let value = Atomic(false)
    var isSet: Bool { value.load(ordering: .acquiring) }
    func set() { value.store(true, ordering: .releasing) }
}
