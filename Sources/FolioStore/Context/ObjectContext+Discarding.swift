extension ObjectContext {
    /// Discards every unsaved change: inserted objects leave the context,
    /// deleted ones come back, changed values return to their committed ones.
    /// Observers hear the reversal as one `.pending` batch: the new objects
    /// deleted (temporary IDs), deleted ones inserted again, changed ones
    /// updated in the keys that return to their committed values.
    ///
    ///     context.rollback()
    public func rollback() {
        deletedElsewhere.discardWrites()
        let discarding = touched
        noteDiscarding(discarding)
        for o in discarding {
            if o.isInsertedFlag {
                unregister(o.objectID)
                o.isInsertedFlag = false
                o.isDeletedFlag = false
                o.detach(.insertionDiscarded)
                continue
            }
            o.isDeletedFlag = false
            if let c = o.committed {
                o.attrs = c.attrs
                o.ones = c.ones
                o.committed = nil
            }
            // Its committed values are older than the store's: read them again.
            if o.isBehindStore {
                o.isBehindStore = false
                o.isFault = true
                o.attrs = []
                o.ones = []
            }
            // Every changed list belongs to a changed object; they load again on access.
            for i in o.manys.indices { o.manys[i] = nil }
        }
        clearTouched()
        undoManager?.removeAll()
        processPendingChanges()
    }

    /// Turns an object back into a fault so its next access reads the store;
    /// with `mergeChanges: false` its unsaved changes are discarded (the
    /// objects on the other side of its changed relationships let go of them too).
    ///
    ///     context.refresh(planet, mergeChanges: false)
    public func refresh(_ object: ManagedObject, mergeChanges: Bool) {
        precondition(!object.isInsertedFlag, "\(object.objectID) is not saved yet; it cannot be refreshed")
        if mergeChanges && object.hasChanges {
            reloadKeepingChanges(object)
            return
        }
        if object.isTouched {
            noteDiscarding([object])
            revertOtherSides(of: object)
        }
        untouch(object)
        object.isBehindStore = false
        object.committed = nil
        object.isDeletedFlag = false
        object.isFault = true
        object.attrs = []
        object.ones = []
        for i in object.manys.indices { object.manys[i] = nil }
    }

    /// Refreshes every registered object that has no unsaved changes.
    ///
    ///     context.refreshAllObjects()
    public func refreshAllObjects() {
        for o in registry.all {
            if !o.hasChanges && !o.isInsertedFlag { refresh(o, mergeChanges: false) }
        }
    }

    /// Reads the stored row and adopts its values for every key not changed
    /// here. When the store changed a key changed here too, the object stays
    /// as it is, at the version its changes were made on: its save meets the
    /// conflict and resolves it by the merge policy.
    func reloadKeepingChanges(_ o: ManagedObject) {
        guard let row = (try? withStore({ try $0.rows(of: o.meta, ids: [o.objectID.rowID]) }))?[o.objectID.rowID] else { return }
        guard let c = o.committed else {
            // Changed only in its to-many lists: every attribute and to-one is the stored one, as the change set says.
            if !o.isFault {
                o.attrs = row.attributes
                o.ones = row.toOnes
            }
            o.version = row.version
            return
        }
        func clash<V: Equatable>(_ mine: V, _ was: V, _ theirs: V) -> Bool { mine != was && theirs != was && theirs != mine }
        if o.meta.attributes.contains(where: { clash(o.attrs[$0.slot], c.attrs[$0.slot], row.attributes[$0.slot]) })
            || o.meta.toOnes.contains(where: { clash(o.ones[$0.slot], c.ones[$0.slot], row.toOnes[$0.slot]) })
        {
            o.isBehindStore = true
            return
        }
        for p in o.meta.attributes where o.attrs[p.slot] == c.attrs[p.slot] { o.attrs[p.slot] = row.attributes[p.slot] }
        for p in o.meta.toOnes where o.ones[p.slot] == c.ones[p.slot] { o.ones[p.slot] = row.toOnes[p.slot] }
        o.committed = CommittedValues(attrs: row.attributes, ones: row.toOnes)
        o.version = row.version
    }

    /// Before `o` drops its unsaved relationship changes, the objects on their
    /// other side take back the committed state.
    private func revertOtherSides(of o: ManagedObject) {
        if let c = o.committed, !o.isFault {
            for p in o.meta.toOnes where o.ones[p.slot] != c.ones[p.slot] {
                if let now = o.ones[p.slot] { detachInverse(of: o, p, from: now) }
                if let then = c.ones[p.slot] { attachInverse(of: o, p, to: then) }
            }
        }
        for p in o.meta.toManys {
            guard let list = o.manys[p.slot] else { continue }
            let target = p.target.name
            for id in list.added { detachInverse(of: o, p, from: ObjectID(entityName: target, rowID: id)) }
            for id in list.removed { attachInverse(of: o, p, to: ObjectID(entityName: target, rowID: id)) }
        }
    }
}
