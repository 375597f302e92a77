extension ObjectContext {
    func didInsert(_ object: ManagedObject) {
        object.isInsertedFlag = true
        touch(object)
        noteChange(object)
        undoManager?.record(.inserted(object, true), in: self)
    }

    /// Assigns a property through the `@Managed` wrapper, keeping inverses in step.
    ///
    /// - Complexity: O(1) amortised for an attribute or a to-one (an ordered
    ///   to-many inverse is loaded once); O(n + m) to replace a to-many's n members with m.
    func set(_ object: ManagedObject, _ p: PropertyDescription, _ slot: ManagedSlot) {
        if object.isDeletedFlag {
            precondition(
                object.isDeletedElsewhere, "\(object.objectID).\(p.name): the object was deleted in this context; it cannot be changed")
            if object.isFault { fulfill(object) }
            return deletedElsewhere.write(object, p, slot)
        }
        switch (p.kind, slot.storage) {
        case (.attribute, .value(let v)):
            if object.isFault { fulfill(object) }
            guard object.attrs[p.slot] != v else { return }
            setPrimitive(object, p, slot.storage)
        case (.toOne, .one(let new)):
            if object.isFault { fulfill(object) }
            let old = object.ones[p.slot]
            guard old != new else { return }
            if let new { checkRelatable(new, object, p) }
            setPrimitive(object, p, .one(new))
            if let old { detachInverse(of: object, p, from: old) }
            if let new { attachInverse(of: object, p, to: new) }
        case (.toMany, .many(let requested)):
            setMembers(object, p, requested)
        default:
            preconditionFailure("\(object.meta.name).\(p.name): value of the wrong kind")
        }
    }

    /// Replaces a to-many's members, then lets go of the old ones' inverses and takes the new ones'.
    private func setMembers(_ object: ManagedObject, _ p: PropertyDescription, _ requested: [ObjectID]) {
        let list = loadedMembers(object, p)
        let old = list.ids
        var wanted: [Int64] = []
        var seen = Set<Int64>()
        for id in requested where seen.insert(id.rowID).inserted { wanted.append(id.rowID) }
        let before = Set(old)
        let leaving = old.filter { !seen.contains($0) }
        let joining = wanted.filter { !before.contains($0) }
        guard !leaving.isEmpty || !joining.isEmpty || (p.isOrdered && wanted != old) else { return }
        let target = p.target.name
        for id in joining { checkRelatable(ObjectID(entityName: target, rowID: id), object, p) }
        if p.isOrdered {
            replaceMembers(of: object, p, with: wanted)
        } else {
            for id in leaving { removeMember(id, from: object, p) }
            for id in joining { appendMember(id, to: object, p) }
        }
        for id in leaving { detachInverse(of: object, p, from: ObjectID(entityName: target, rowID: id)) }
        for id in joining { attachInverse(of: object, p, to: ObjectID(entityName: target, rowID: id)) }
    }

    /// A relationship may not take an object deleted in this context (the save could not store it).
    private func checkRelatable(_ id: ObjectID, _ object: ManagedObject, _ p: PropertyDescription) {
        precondition(
            registry[id]?.isDeletedFlag != true,
            "\(object.objectID).\(p.name): \(id) was deleted; it cannot be related to")
    }

    /// Writes one attribute or to-one slot, recording the committed value,
    /// the undo action and the change; the other side is the caller's business.
    func setPrimitive(_ object: ManagedObject, _ p: PropertyDescription, _ value: ManagedSlot.Storage) {
        if object.isFault { fulfill(object) }
        // A new object has no committed values to keep.
        if object.committed == nil && !object.isInsertedFlag {
            object.committed = CommittedValues(attrs: object.attrs, ones: object.ones)
        }
        let old: ManagedSlot.Storage
        switch (p.kind, value) {
        case (.attribute, .value(let v)):
            old = .value(object.attrs[p.slot])
            object.attrs[p.slot] = v
        case (.toOne, .one(let id)):
            old = .one(object.ones[p.slot])
            object.ones[p.slot] = id
        default:
            preconditionFailure("\(object.meta.name).\(p.name): value of the wrong kind")
        }
        touch(object)
        noteChange(object, p)
        undoManager?.record(.slot(object, p, old), in: self)
    }

    // MARK: Deleting

    /// Deletes an object and applies its relationships' delete rules at once:
    /// `nullify` takes it out of each related object's inverse, `cascade`
    /// deletes the related objects too, `deny` is checked when saving,
    /// against the relationship as the save would store it (so deleting the
    /// members, or moving them elsewhere, in the same save is allowed). The
    /// row is removed by the next save; until then fetches no longer return it.
    ///
    ///     context.delete(mars)
    public func delete(_ object: ManagedObject) {
        guard !object.isDeletedFlag else { return }
        precondition(object.belongs(to: self), "\(object.objectID) belongs to another context")
        if object.isFault { fulfill(object) }
        var cascade: [ManagedObject] = []
        for p in object.meta.properties where !p.isAttribute && p.deleteRule != .deny {
            let related = targets(object, p)
            if related.isEmpty { continue }
            // Letting go of to-one inverses reads each related object: load the faults in one query.
            let loaded = p.isToMany && p.inverse.isToOne ? (try? objects(with: related)) ?? [] : []
            if p.deleteRule == .cascade { cascade += related.map { self.object(with: $0) } }
            withExtendedLifetime(loaded) {
                set(object, p, ManagedSlot(storage: p.isToOne ? .one(nil) : .many([])))
            }
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

    /// The objects `object.p` relates to.
    func targets(_ object: ManagedObject, _ p: PropertyDescription) -> [ObjectID] {
        if p.isToOne {
            if object.isFault { fulfill(object) }
            return object.ones[p.slot].map { [$0] } ?? []
        }
        return members(object, p)
    }
}
