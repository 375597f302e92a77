// Both sides of every relationship are kept in step, whether or not a to-many
// side is loaded: each change to one side is recorded on the other in O(1)
// (an ordered to-many is loaded first, once, so that its order stays exact).
// Each side's change is recorded for undo on its own, so undo replays them
// exactly, without deriving one side from the other.

extension ObjectContext {
    /// `object.p`'s members as far as the context knows them, made when first
    /// needed: loaded (and empty) for a new object, otherwise recording only
    /// changes until something reads it.
    func memberList(_ object: ManagedObject, _ p: PropertyDescription) -> MemberList {
        if let list = object.manys[p.slot] { return list }
        let list = MemberList(loaded: object.objectID.isTemporary, ordered: p.isOrdered)
        object.manys[p.slot] = list
        registry.noteList(object, p)
        return list
    }

    /// `object.p`'s members with the stored ones loaded (one query, the first time).
    func loadedMembers(_ object: ManagedObject, _ p: PropertyDescription) -> MemberList {
        let list = memberList(object, p)
        if !list.isLoaded {
            let stored = (try? withStore { try $0.members(of: p, owner: object.objectID.rowID) }) ?? []
            list.load(stored: stored)
        }
        return list
    }

    /// The members of a to-many: the stored ones with this context's unsaved changes.
    ///
    /// - Complexity: O(n), one query the first time.
    func members(_ object: ManagedObject, _ p: PropertyDescription) -> [ObjectID] {
        loadedMembers(object, p).objectIDs(of: p.target.name)
    }

    /// The list a change to `object.p` is recorded in (ordered lists load first).
    private func changing(_ object: ManagedObject, _ p: PropertyDescription) -> MemberList {
        p.isOrdered ? loadedMembers(object, p) : memberList(object, p)
    }

    private func didChangeMembers(_ object: ManagedObject, _ p: PropertyDescription, undo: UndoStack.Action) {
        touch(object)
        noteChange(object, p)
        undoManager?.record(undo, in: self)
    }

    // MARK: One side, recorded

    /// Adds `member` at the end of `object.p` (this side only).
    func appendMember(_ member: Int64, to object: ManagedObject, _ p: PropertyDescription) {
        if changing(object, p).append(member) { didChangeMembers(object, p, undo: .memberAdded(object, p, member)) }
    }

    /// Puts `member` back into `object.p` after `previous` (this side only).
    func insertMember(_ member: Int64, into object: ManagedObject, _ p: PropertyDescription, after previous: Int64) {
        if changing(object, p).insert(member, after: previous) { didChangeMembers(object, p, undo: .memberAdded(object, p, member)) }
    }

    /// Takes `member` out of `object.p` (this side only).
    func removeMember(_ member: Int64, from object: ManagedObject, _ p: PropertyDescription) {
        if let previous = changing(object, p).remove(member) {
            didChangeMembers(object, p, undo: .memberRemoved(object, p, member, after: previous))
        }
    }

    /// Makes `ids` the members of the ordered `object.p`, in that order (this side only).
    func replaceMembers(of object: ManagedObject, _ p: PropertyDescription, with ids: [Int64]) {
        let list = loadedMembers(object, p)
        let old = list.ids
        guard old != ids else { return }
        list.replaceAll(with: ids)
        didChangeMembers(object, p, undo: .members(object, p, old))
    }

    // MARK: The other side

    /// `object` no longer relates to `targetID` through `p`: the target's side lets go of it.
    func detachInverse(of object: ManagedObject, _ p: PropertyDescription, from targetID: ObjectID) {
        let inverse = p.inverse!
        let target = self.object(with: targetID)
        if inverse.isToMany {
            removeMember(object.objectID.rowID, from: target, inverse)
            return
        }
        if target.isFault { fulfill(target) }
        if target.ones[inverse.slot] == object.objectID { setPrimitive(target, inverse, .one(nil)) }
    }

    /// `object` now relates to `targetID` through `p`: the target's side takes
    /// it, and a target with a to-one side first leaves its previous partner.
    func attachInverse(of object: ManagedObject, _ p: PropertyDescription, to targetID: ObjectID) {
        let inverse = p.inverse!
        let target = self.object(with: targetID)
        if inverse.isToMany {
            appendMember(object.objectID.rowID, to: target, inverse)
            return
        }
        if target.isFault { fulfill(target) }
        let previous = target.ones[inverse.slot]
        guard previous != object.objectID else { return }
        setPrimitive(target, inverse, .one(object.objectID))
        guard let previous else { return }
        let partner = self.object(with: previous)
        if p.isToMany {
            removeMember(targetID.rowID, from: partner, p)
        } else {
            if partner.isFault { fulfill(partner) }
            if partner.ones[p.slot] == targetID { setPrimitive(partner, p, .one(nil)) }
        }
    }
}
