extension ObjectContext {
    /// Validates every change, then writes all of them in one transaction.
    /// On failure nothing is written and the changes stay in the context, so
    /// they can be fixed and saved again. Changes not yet processed are
    /// processed first (observers hear them as a `.pending` batch); after the
    /// write, observers of ``observeChanges(_:)`` hear a `.thisContext`
    /// change set holding only ``ChangeSet/permanentIDs``, observers of
    /// ``observeDidSave(_:)`` the whole saved change set, and other contexts merge it.
    ///
    ///     do { try context.save() } catch let error as StoreError { print(error) }
    public func save() throws {
        requireConfinement()
        precondition(writeTransaction == nil, "save() inside performWrite: its changes are saved when the body returns")
        guard let pending = try prepareSave(),
              let (saved, permanent) = try commitResolvingConflicts(pending, coordinator.commit) else { return }
        finishSave(saved, permanent: permanent)
    }

    /// A validated save waiting to be written.
    struct PendingSave {
        let batch: SaveBatch
        let inserted: [ManagedObject]
    }

    /// Tells will-save observers (unless this is a save again after its
    /// conflicts were resolved), processes what is unprocessed, validates,
    /// and gathers the writes; nil when nothing changed.
    func prepareSave(tellingObservers: Bool = true) throws -> PendingSave? {
        if tellingObservers && !willSaveObservers.isEmpty {
            let preview = pendingChanges(touched.filter(\.hasChanges))
            if !preview.isEmpty { for key in willSaveObservers.keys.sorted() { willSaveObservers[key]?(preview) } }
        }
        processPendingChanges()
        let pending = touched.filter(\.hasChanges)
        guard !pending.isEmpty else { return nil }
        try validate(pending)
        let (batch, inserted) = makeBatch(pending)
        return PendingSave(batch: batch, inserted: inserted)
    }

    /// After the writes are committed: permanent IDs, cleared tracking, observers and other contexts told.
    func finishSave(_ pending: PendingSave, permanent: [ObjectID]) {
        let saved = didCommit(pending.batch, inserted: pending.inserted, permanent: permanent)
        undoManager?.removeAll()
        notify(ChangeSet(origin: .thisContext, permanentIDs: saved.permanentIDs))
        for key in didSaveObservers.keys.sorted() { didSaveObservers[key]?(saved) }
        var shared = saved.with(origin: .otherContext)
        shared.permanentIDs = [:]
        coordinator.broadcast(shared, except: inbox)
    }

    /// The unsaved changes as a change set (temporary IDs for inserted objects).
    ///
    ///     context.pendingChanges().inserted.count
    public func pendingChanges() -> ChangeSet { pendingChanges(touched.filter(\.hasChanges)) }

    private func pendingChanges(_ objects: [ManagedObject]) -> ChangeSet {
        var c = ChangeSet()
        for o in objects {
            if o.isInsertedFlag { if !o.isDeletedFlag { c.inserted.insert(o.objectID) } }
            else if o.isDeletedFlag { c.deleted.insert(o.objectID) }
            else { c.updated[o.objectID] = o.changedKeys }
        }
        return c
    }

    /// Throws the failure of the object with the smallest ID, so the error does not depend on hashing order.
    private func validate(_ objects: [ManagedObject]) throws {
        var first: (ObjectID, StoreError)?
        for o in objects {
            do { try validate(o) } catch let error as StoreError {
                if first == nil || o.objectID < first!.0 { first = (o.objectID, error) }
            }
        }
        if let first { throw first.1 }
    }

    private func validate(_ o: ManagedObject) throws {
        let e = o.meta
        if o.isDeletedFlag {
            // The relationship as the save will store it: members deleted in the same save do not
            // count, and a new object deleted again is refused like a stored one (its members would point at nothing).
            for p in e.properties where p.deleteRule == .deny && !p.isAttribute
                && targets(o, p).contains(where: { registry[$0]?.isDeletedFlag != true }) {
                throw StoreError.deleteDenied(entity: e.name, key: p.name)
            }
            return
        }
        // Changed only in its to-manys: the stored values were valid when saved.
        if o.isFault { return }
        for p in e.attributes {
            let v = o.attrs[p.slot]
            if v.isNull {
                if !p.isOptional { throw StoreError.validation(entity: e.name, key: p.name, reason: "a value is required") }
                continue
            }
            if p.hasRules, let reason = p.validate(v) { throw StoreError.validation(entity: e.name, key: p.name, reason: reason) }
        }
        for p in e.toOnes where !p.isOptional && o.ones[p.slot] == nil {
            throw StoreError.validation(entity: e.name, key: p.name, reason: "a related object is required")
        }
    }

    /// The writes for a save, and the inserted objects in the order of `batch.inserts`.
    private func makeBatch(_ objects: [ManagedObject]) -> (SaveBatch, [ManagedObject]) {
        var batch = SaveBatch()
        var inserted: [ManagedObject] = []
        for o in objects {
            let e = o.meta
            if o.isDeletedFlag {
                if !o.isInsertedFlag {
                    batch.deletes.append(.init(entity: e, id: o.objectID, version: o.version))
                    batch.changes.deleted.insert(o.objectID)
                }
                continue
            }
            if o.isInsertedFlag {
                inserted.append(o)
            } else {
                let keys = o.changedKeys
                if !keys.isEmpty { batch.changes.updated[o.objectID] = keys }
                if let c = o.committed, !o.isFault {
                    batch.updates.append(.init(
                        entity: e, id: o.objectID,
                        attrs: e.attributes.filter { o.attrs[$0.slot] != c.attrs[$0.slot] }.map { ($0, o.attrs[$0.slot]) },
                        ones: e.toOnes.filter { o.ones[$0.slot] != c.ones[$0.slot] }.map { ($0, o.ones[$0.slot]) },
                        version: o.version))
                }
            }
            // Only what changed: members added and removed, and an ordered list's order.
            for p in e.toManys {
                guard let list = o.manys[p.slot], list.hasChanges else { continue }
                let target = p.target.name
                if case .joinTable = p.storage {
                    batch.joinRemoves += list.removed.map { .init(property: p, owner: o.objectID, member: ObjectID(entityName: target, rowID: $0)) }
                    batch.joinAdds += list.added.map { .init(property: p, owner: o.objectID, member: ObjectID(entityName: target, rowID: $0)) }
                }
                if p.isOrdered && list.isLoaded && list.count > 0 {
                    batch.orders.append(.init(property: p, owner: o.objectID, members: list.objectIDs(of: target)))
                }
            }
        }
        // Inserts in creation order, so row IDs follow it.
        let keys = inserted.map(\.objectID.rowID)
        inserted = keys.indices.sorted { keys[$0] > keys[$1] }.map { inserted[$0] }
        batch.inserts = inserted.map { .init(entity: $0.meta, id: $0.objectID, attrs: $0.attrs, ones: $0.ones) }
        return (batch, inserted)
    }

    /// Applies permanent IDs, clears change tracking, and returns the saved change set.
    private func didCommit(_ batch: SaveBatch, inserted: [ManagedObject], permanent: [ObjectID]) -> ChangeSet {
        var saved = ChangeSet(updated: batch.changes.updated, deleted: batch.changes.deleted, origin: .thisContext)
        saved.inserted.reserveCapacity(permanent.count)
        var map: [ObjectID: ObjectID] = [:]
        let stillTouched = touched
        let told = !observers.isEmpty || !didSaveObservers.isEmpty
        var rows: [Int64: Int64] = [:]
        if told || batch.refersToNewObjects || stillTouched.count > inserted.count {
            for (o, id) in zip(inserted, permanent) {
                map[o.objectID] = id
                rows[o.objectID.rowID] = id.rowID
            }
        }
        if told { saved.permanentIDs = map }
        if let first = inserted.first { registry.reserve(inserted.count, for: first.meta) }
        for (o, id) in zip(inserted, permanent) {
            o.objectID = id
            o.version = RowVersion.first
            register(o)
            saved.inserted.insert(id)
        }
        // The rows written are one version on (objects changed only in their to-manys wrote no row).
        for u in batch.updates where !(u.attrs.isEmpty && u.ones.isEmpty) { registry[u.id]?.version = u.version + 1 }
        for id in batch.changes.deleted {
            guard let o = registry[id] else { continue }
            unregister(id)
            o.managedContext = nil
        }
        func fix(_ id: ObjectID) -> ObjectID { id.isTemporary ? map[id] ?? id : id }
        for o in stillTouched {
            if o.isDeletedFlag && o.isInsertedFlag {
                unregister(o.objectID)
                o.managedContext = nil
            }
            if !map.isEmpty { o.ones = o.ones.map { $0.map(fix) } }
            for i in o.manys.indices {
                guard let list = o.manys[i] else { continue }
                // A list that recorded changes only now has them stored: read it again when needed.
                if list.isLoaded { list.didSave(rows) } else { o.manys[i] = nil }
            }
            o.isInsertedFlag = false
            o.committed = nil
        }
        // Every temporary ID is now permanent (or its object is gone).
        registry.removeTemporaries()
        clearTouched()
        return saved
    }
}
