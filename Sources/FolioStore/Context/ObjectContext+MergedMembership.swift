// After another context's or process's save, the to-many lists whose stored
// members it may have changed are visited, found through the registry's
// index of lists (never by walking every object): a merge costs what the
// save touched plus the lists held in the to-manys it could have changed.

extension ObjectContext {
    /// Stored memberships may have changed where `changes` inserted, updated
    /// or deleted objects: in the to-manys whose members are of those
    /// entities, and in the changed objects' own to-manys (an order, join
    /// rows). Each such list without unsaved changes is dropped (read again
    /// on access), an unordered one with changes keeps only its changes, and
    /// an ordered one with changes loses the deleted members. No other
    /// stored membership can have changed, so no other list is visited
    /// (but ordered lists kept by an earlier merge are, see ``forgetKeptBehind(_:)``).
    ///
    /// - Complexity: O(c + l) for c changed objects and l lists held in the
    ///   to-manys whose members are of a changed entity.
    func forgetStoredMembership(after changes: ChangeSet, insertedInto entity: EntityDescription? = nil) {
        var visit = MembershipVisit()
        for id in changes.deleted { visit.deleted[id.entityName, default: []].append(id.rowID) }
        forgetKeptBehind(&visit)
        var touched = Set<String>(visit.deleted.keys)
        if let entity { touched.insert(entity.name) }
        var last = ""
        for id in changes.inserted where id.entityName != last { last = id.entityName; touched.insert(last) }
        for id in changes.updated.keys where id.entityName != last { last = id.entityName; touched.insert(last) }
        for name in touched {
            guard let entity = schema.entity(named: name) else { continue }
            for p in registry.lists.relationships(targeting: entity) { forgetStoredMembers(p, &visit) }
        }
        func ownLists(_ id: ObjectID) {
            guard let o = registry[id] else { return }
            for p in o.meta.toManys {
                if let list = o.manys[p.slot] { _ = forgetStoredMembers(of: o, p, list, &visit) }
            }
        }
        for id in changes.inserted { ownLists(id) }
        for id in changes.updated.keys { ownLists(id) }
    }

    /// After history this context had not heard was trimmed: every list,
    /// as ``forgetStoredMembership(after:)`` treats those a save touched.
    func forgetAllStoredMembership() {
        var visit = MembershipVisit()
        forgetKeptBehind(&visit)
        for p in registry.lists.relationships { forgetStoredMembers(p, &visit) }
    }

    /// Visits the ordered lists earlier merges kept for their changes: once
    /// those changes are undone, such a list may hold an order the store no
    /// longer has, and must be dropped at the next merge, as every unchanged list was.
    private func forgetKeptBehind(_ visit: inout MembershipVisit) {
        var gone: [LoadedListIndex.KeptList] = []
        for (key, p) in registry.lists.keptBehind {
            guard let o = registry.object(p.entity, anyRowID: key.rowID), let list = o.manys[p.slot],
                forgetStoredMembers(of: o, p, list, &visit)
            else {
                gone.append(key)
                continue
            }
        }
        registry.forgetKeptBehind(gone)
    }

    /// Visits every list held in `p`, and forgets the entries of lists that are gone.
    private func forgetStoredMembers(_ p: PropertyDescription, _ visit: inout MembershipVisit) {
        let (stored, temporary) = registry.lists.owners(p)
        for (rowIDs, isTemporary) in [(stored, false), (temporary, true)] where !rowIDs.isEmpty {
            var gone: [Int64] = []
            for rowID in rowIDs {
                guard let o = registry.object(p.entity, anyRowID: rowID), let list = o.manys[p.slot],
                    forgetStoredMembers(of: o, p, list, &visit)
                else {
                    gone.append(rowID)
                    continue
                }
            }
            registry.forgetLists(gone, p, temporary: isTemporary)
        }
    }

    /// One list's part of a merge, once per merge (a second visit could drop
    /// an ordered list the first left without changes); false when it was dropped.
    private func forgetStoredMembers(
        of o: ManagedObject, _ p: PropertyDescription, _ list: MemberList,
        _ visit: inout MembershipVisit
    ) -> Bool {
        guard visit.lists.insert(ObjectIdentifier(list)).inserted else { return true }
        if !list.hasChanges {
            o.manys[p.slot] = nil
            return false
        }
        if !p.isOrdered {
            list.unloadKeepingChanges()
        } else {
            for id in visit.deleted[p.target.name] ?? [] { list.forget(id) }
            registry.keepBehind(o, p)
        }
        return true
    }
}

/// What one merge's visit of the lists knows: the deleted row IDs by
/// entity, and the lists visited so far.
struct MembershipVisit {
    var deleted: [String: [Int64]] = [:]
    var lists = Set<ObjectIdentifier>()
}
