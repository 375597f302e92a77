extension ObjectContext {
    func didInsert(_ object: ManagedObject) {
        object.isInsertedFlag = true
        touch(object)
        noteChange(object)
        undoManager?.record(.inserted(object, true), in: self)
    }

    /// Assigns a property through the `@Managed` wrapper, keeping inverses in step.
    func set(_ object: ManagedObject, _ p: PropertyDescription, _ slot: ManagedSlot) {
        precondition(!object.isDeletedFlag, "\(object.objectID).\(p.name): the object was deleted; it cannot be changed")
        switch (p.kind, slot.storage) {
        case (.attribute, .value(let v)):
            if object.isFault { fulfill(object) }
            guard object.attrs[p.slot] != v else { return }
            setPrimitive(object, p, slot.storage)
        case (.toOne, .one(let new)):
            if object.isFault { fulfill(object) }
            let old = object.ones[p.slot]
            guard old != new else { return }
            setPrimitive(object, p, .one(new))
            if let old { unlink(old, p.inverse, from: object.objectID) }
            if let new { link(new, p.inverse, to: object.objectID, replacing: p) }
        case (.toMany, .many(let requested)):
            let old = members(object, p)
            let oldSet = Set(old), newSet = Set(requested)
            let final = p.isOrdered ? requested : old.filter(newSet.contains) + requested.filter { !oldSet.contains($0) }
            guard final != old else { return }
            setPrimitive(object, p, .many(final))
            for id in old where !newSet.contains(id) { unlink(id, p.inverse, from: object.objectID) }
            for id in requested where !oldSet.contains(id) { link(id, p.inverse, to: object.objectID, replacing: p) }
        default:
            preconditionFailure("\(object.meta.name).\(p.name): value of the wrong kind")
        }
    }

    /// Writes one slot, recording the committed value, the undo action and the change.
    func setPrimitive(_ object: ManagedObject, _ p: PropertyDescription, _ value: ManagedSlot.Storage) {
        if object.isFault { fulfill(object) }
        // A new object has no committed values to keep.
        if object.committed == nil && !object.isInsertedFlag {
            object.committed = CommittedValues(attrs: object.attrs, ones: object.ones)
        }
        noteChange(object, p.name)
        let old: ManagedSlot.Storage
        switch (p.kind, value) {
        case (.attribute, .value(let v)):
            old = .value(object.attrs[p.slot])
            object.attrs[p.slot] = v
        case (.toOne, .one(let id)):
            let before = object.ones[p.slot]
            old = .one(before)
            object.ones[p.slot] = id
            touch(object)
            undoManager?.record(.slot(object, p, old), in: self)
            syncInverseLists(object, p, removed: before.map { [$0] } ?? [], added: id.map { [$0] } ?? [])
            return
        case (.toMany, .many(let ids)):
            let current = members(object, p)
            old = .many(current)
            if object.committed?.manys[p.slot] == nil { object.committed?.manys[p.slot] = current }
            object.manys[p.slot] = ids
            touch(object)
            undoManager?.record(.slot(object, p, old), in: self)
            if p.inverse.isToMany {
                let now = Set(ids), was = Set(current)
                syncInverseLists(object, p, removed: current.filter { !now.contains($0) }, added: ids.filter { !was.contains($0) })
            }
            return
        default:
            preconditionFailure("\(object.meta.name).\(p.name): value of the wrong kind")
        }
        touch(object)
        undoManager?.record(.slot(object, p, old), in: self)
    }

    /// Keeps loaded to-many lists on the other side in step with a change to
    /// `p` (also when undo replays it, or the list was loaded after the change).
    private func syncInverseLists(_ object: ManagedObject, _ p: PropertyDescription, removed: [ObjectID], added: [ObjectID]) {
        guard let inverse = p.inverse, inverse.isToMany else { return }
        let me = object.objectID
        for id in removed {
            guard let t = registry[id], !t.isDeletedFlag, let list = t.manys[inverse.slot],
                  list.contains(me) else { continue }
            setPrimitive(t, inverse, .many(list.filter { $0 != me }))
        }
        for id in added {
            guard let t = registry[id], !t.isDeletedFlag, let list = t.manys[inverse.slot],
                  !list.contains(me) else { continue }
            setPrimitive(t, inverse, .many(list + [me]))
        }
    }

    /// Removes `id` from `target`'s side `inverse` (the target no longer points back).
    private func unlink(_ targetID: ObjectID, _ inverse: PropertyDescription, from id: ObjectID) {
        let target = object(with: targetID)
        if target.isDeletedFlag { return }
        if inverse.isToOne {
            if target.isFault { fulfill(target) }
            if target.ones[inverse.slot] == id { setPrimitive(target, inverse, .one(nil)) }
        } else if let list = target.manys[inverse.slot], list.contains(id) {
            setPrimitive(target, inverse, .many(list.filter { $0 != id }))
        }
    }

    /// Adds `id` to `target`'s side `inverse`; a to-one inverse first leaves its old partner.
    private func link(_ targetID: ObjectID, _ inverse: PropertyDescription, to id: ObjectID, replacing forward: PropertyDescription) {
        let target = object(with: targetID)
        if inverse.isToOne {
            if target.isFault { fulfill(target) }
            let previous = target.ones[inverse.slot]
            guard previous != id else { return }
            setPrimitive(target, inverse, .one(id))
            // The target leaves its previous partner's side of the relationship.
            if let previous {
                let partner = object(with: previous)
                if forward.isToOne {
                    if partner.isFault { fulfill(partner) }
                    if partner.ones[forward.slot] == targetID { setPrimitive(partner, forward, .one(nil)) }
                } else if let list = partner.manys[forward.slot], list.contains(targetID) {
                    setPrimitive(partner, forward, .many(list.filter { $0 != targetID }))
                }
            }
        } else if let list = target.manys[inverse.slot], !list.contains(id) {
            setPrimitive(target, inverse, .many(list + [id]))
        }
    }

    /// The members of a to-many, loading them (stored rows plus this context's unsaved changes) on first use.
    func members(_ object: ManagedObject, _ p: PropertyDescription) -> [ObjectID] {
        if let loaded = object.manys[p.slot] { return loaded }
        var ids: [ObjectID] = []
        if !object.objectID.isTemporary {
            let stored = (try? withStore { try $0.members(of: p, owner: object.objectID.rowID) }) ?? []
            ids = stored.map { ObjectID(entityName: p.target.name, rowID: $0) }
        }
        let me = object.objectID
        let inverse = p.inverse!
        var present = Set(ids)
        for other in touchedList where other.isTouched && other.meta === p.target {
            let now = !other.isDeletedFlag && pointsAt(other, inverse, me, committed: false)
            let before = !other.isInsertedFlag && pointsAt(other, inverse, me, committed: true)
            if now && !before && !present.contains(other.objectID) {
                ids.append(other.objectID)
                present.insert(other.objectID)
            } else if !now && before && present.contains(other.objectID) {
                ids.removeAll { $0 == other.objectID }
                present.remove(other.objectID)
            }
        }
        object.manys[p.slot] = ids
        return ids
    }

    private func pointsAt(_ o: ManagedObject, _ p: PropertyDescription, _ id: ObjectID, committed: Bool) -> Bool {
        if o.isFault { return committed }
        if p.isToOne {
            let ones = committed ? (o.committed?.ones ?? o.ones) : o.ones
            return ones[p.slot] == id
        }
        let list = committed ? (o.committed?.manys[p.slot] ?? o.manys[p.slot]) : o.manys[p.slot]
        return list?.contains(id) ?? committed
    }

    // MARK: Deleting

    /// Deletes an object (and, by the delete rules, what it owns). The row is
    /// removed by the next save; until then fetches no longer return it.
    ///
    ///     context.delete(mars)
    public func delete(_ object: ManagedObject) {
        guard !object.isDeletedFlag else { return }
        precondition(object.managedContext === self, "\(object.objectID) belongs to another context")
        if object.isFault { fulfill(object) }
        if object.meta.properties.contains(where: { $0.deleteRule == .deny && !$0.isAttribute && !targets(object, $0).isEmpty }) {
            // Marked only; the save reports the refusal (as Core Data does).
            markDeleted(object)
            return
        }
        var cascade: [ManagedObject] = []
        for p in object.meta.properties where !p.isAttribute {
            let related = targets(object, p)
            if p.deleteRule == .cascade { cascade += related.map { self.object(with: $0) } }
            // Clearing our side also clears the inverses (nullify).
            if p.isToOne { set(object, p, ManagedSlot(storage: .one(nil))) }
            else { set(object, p, ManagedSlot(storage: .many([]))) }
        }
        markDeleted(object)
        for o in cascade { delete(o) }
    }

    private func markDeleted(_ object: ManagedObject) {
        object.isDeletedFlag = true
        touch(object)
        noteChange(object)
        undoManager?.record(.deleted(object, false), in: self)
    }

    func targets(_ object: ManagedObject, _ p: PropertyDescription) -> [ObjectID] {
        if p.isToOne {
            if object.isFault { fulfill(object) }
            return object.ones[p.slot].map { [$0] } ?? []
        }
        return members(object, p)
    }
}
