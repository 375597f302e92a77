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
            let (saved, permanent) = try commitResolvingConflicts(pending, coordinator.commit)
        else { return }
        finishSave(saved, permanent: permanent)
    }

    /// A validated save waiting to be written.
    struct PendingSave {
        let batch: SaveBatch
        let inserted: [ManagedObject]
        /// The object of each of `batch.updates`, in the same order.
        let updated: [ManagedObject]
    }

    /// Tells will-save observers (unless this is a save again after its
    /// conflicts were resolved), processes what is unprocessed, validates,
    /// and gathers the writes; nil when nothing changed.
    func prepareSave(tellingObservers: Bool = true) throws -> PendingSave? {
        try deletedElsewhere.refuseWrites()
        if tellingObservers && !willSaveObservers.isEmpty {
            let preview = pendingChanges(touched.filter { $0.hasChanges })
            if !preview.isEmpty { for key in willSaveObservers.keys.sorted() { willSaveObservers[key]?(preview) } }
        }
        processPendingChanges()
        return try makeBatch()
    }

    /// After the writes are committed: permanent IDs, cleared tracking, observers and other contexts told.
    func finishSave(_ pending: PendingSave, permanent: [ObjectID]) {
        let saved = didCommit(pending.batch, inserted: pending.inserted, updated: pending.updated, permanent: permanent)
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
    public func pendingChanges() -> ChangeSet { pendingChanges(touched.filter { $0.hasChanges }) }

    private func pendingChanges(_ objects: [ManagedObject]) -> ChangeSet {
        var c = ChangeSet()
        for o in objects {
            if o.isInsertedFlag {
                if !o.isDeletedFlag { c.inserted.insert(o.objectID) }
            } else if o.isDeletedFlag {
                c.deleted.insert(o.objectID)
            } else {
                c.updated[o.objectID] = o.changedKeys
            }
        }
        return c
    }

    private func validate(_ o: ManagedObject) throws {
        let e = o.meta
        if o.isDeletedFlag {
            // The relationship as the save will store it: members deleted in the same save do not
            // count, and a new object deleted again is refused like a stored one (its members would point at nothing).
            for p in e.properties
            where p.deleteRule == .deny && !p.isAttribute
                && targets(o, p).contains(where: { registry[$0]?.isDeletedFlag != true })
            {
                throw StoreError.deleteDenied(entity: e.name, key: p.name)
            }
            return
        }
        // Changed only in its to-manys: the stored values were valid when saved.
        if o.isFault { return }
        let values = o.attrs
        for p in e.attributes {
            let v = values[p.slot]
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

    /// Validates the changed objects and gathers their writes, in one pass
    /// over them (a save of many objects is bound by reaching each one);
    /// nil when nothing changed. A validation failure throws the one of the
    /// object with the smallest ID, so the error does not depend on hashing order.
    private func makeBatch() throws -> PendingSave? {
        var batch = SaveBatch()
        var inserted: [ManagedObject] = []
        var updated: [ManagedObject] = []
        var changed = false
        var failure: (ObjectID, StoreError)?
        func check(_ o: ManagedObject) throws {
            changed = true
            do { try validate(o) } catch let error as StoreError {
                if failure == nil || o.objectID < failure!.0 { failure = (o.objectID, error) }
            }
        }
        batch.updates.reserveCapacity(touchedList.count)
        updated.reserveCapacity(touchedList.count)
        batch.changes.updated.reserveCapacity(touchedList.count)
        var keySets = ChangedKeySets()
        for o in touchedList where o.isTouched {
            let e = o.meta
            if o.isDeletedFlag {
                try check(o)
                if !o.isInsertedFlag {
                    batch.deletes.append(.init(entity: e, id: o.objectID, version: o.version))
                    batch.changes.deleted.insert(o.objectID)
                }
                continue
            }
            if o.isInsertedFlag {
                try check(o)
                inserted.append(o)
            } else {
                var attrs: [(PropertyDescription, StoreValue)] = []
                var ones: [(PropertyDescription, ObjectID?)] = []
                if let c = o.committed, !o.isFault {
                    // Local copies: one access to the object's storage, not one per property.
                    let nowAttrs = o.attrs, nowOnes = o.ones
                    for p in e.attributes where nowAttrs[p.slot] != c.attrs[p.slot] { attrs.append((p, nowAttrs[p.slot])) }
                    for p in e.toOnes where nowOnes[p.slot] != c.ones[p.slot] { ones.append((p, nowOnes[p.slot])) }
                }
                // No changed key: nothing to save (a value set back to what it was).
                let keys = keySets.keys(o, attrs: attrs, ones: ones)
                if keys.isEmpty { continue }
                try check(o)
                batch.changes.updated[o.objectID] = keys
                if o.committed != nil && !o.isFault {
                    batch.updates.append(.init(entity: e, id: o.objectID, attrs: attrs, ones: ones, version: o.version))
                    updated.append(o)
                }
            }
            // Only what changed: members added and removed, and an ordered list's order.
            for p in e.toManys {
                guard let list = o.manys[p.slot], list.hasChanges else { continue }
                let target = p.target.name
                if case .joinTable = p.storage {
                    batch.joinRemoves += list.removed.map {
                        .init(property: p, owner: o.objectID, member: ObjectID(entityName: target, rowID: $0))
                    }
                    batch.joinAdds += list.added.map {
                        .init(property: p, owner: o.objectID, member: ObjectID(entityName: target, rowID: $0))
                    }
                }
                if p.isOrdered && list.isLoaded && list.count > 0 {
                    batch.orders.append(.init(property: p, owner: o.objectID, members: list.objectIDs(of: target)))
                }
            }
        }
        guard changed else { return nil }
        if let failure { throw failure.1 }
        // Inserts in creation order, so row IDs follow it.
        let keys = inserted.map { $0.objectID.rowID }
        inserted = keys.indices.sorted { keys[$0] > keys[$1] }.map { inserted[$0] }
        batch.inserts = inserted.map { .init(entity: $0.meta, id: $0.objectID, attrs: $0.attrs, ones: $0.ones) }
        return PendingSave(batch: batch, inserted: inserted, updated: updated)
    }

    /// Applies permanent IDs, clears change tracking, and returns the saved change set.
    private func didCommit(_ batch: SaveBatch, inserted: [ManagedObject], updated: [ManagedObject], permanent: [ObjectID]) -> ChangeSet {
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
        for (u, o) in zip(batch.updates, updated) where !(u.attrs.isEmpty && u.ones.isEmpty) { o.version = u.version + 1 }
        for id in batch.changes.deleted {
            guard let o = registry[id] else { continue }
            unregister(id)
            o.detach(.deletionSaved)
        }
        func fix(_ id: ObjectID) -> ObjectID { id.isTemporary ? map[id] ?? id : id }
        for o in stillTouched {
            if o.isDeletedFlag && o.isInsertedFlag {
                unregister(o.objectID)
                o.detach(.insertionDiscarded)
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

/// The changed keys of a save's objects, one shared set per entity and
/// combination of changed properties: a save of many objects changed alike
/// builds the set once, and the history groups them without comparing names.
private struct ChangedKeySets {
    private struct Shape: Hashable { var entity: Int; var bits: UInt64 }
    private var sets: [Shape: Set<String>] = [:]
    private var last: (shape: Shape, keys: Set<String>)?

    /// `o.changedKeys`, given its changed attributes and to-ones (empty for a fault).
    mutating func keys(_ o: ManagedObject, attrs: [(PropertyDescription, StoreValue)], ones: [(PropertyDescription, ObjectID?)]) -> Set<
        String
    > {
        let e = o.meta
        guard e.properties.count <= 64 else { return o.changedKeys }
        var bits: UInt64 = 0
        for (p, _) in attrs { bits |= 1 << UInt64(p.index) }
        for (p, _) in ones { bits |= 1 << UInt64(p.index) }
        for p in e.toManys where o.manys[p.slot]?.hasChanges == true { bits |= 1 << UInt64(p.index) }
        let shape = Shape(entity: e.index, bits: bits)
        if let last, last.shape == shape { return last.keys }
        let keys = sets[shape] ?? Set(e.properties.lazy.filter { bits & (1 << UInt64($0.index)) != 0 }.map(\.name))
        sets[shape] = keys
        last = (shape, keys)
        return keys
    }
}
