extension ObjectContext {
    /// Checks the object graph's invariants and stops with a message naming
    /// the object and key when one is broken: every registered object is
    /// registered under its own ID and points back at this context; every
    /// object with changes is registered; and wherever both sides of a
    /// relationship are loaded, they agree.
    ///
    ///     context.checkInvariants()   // after each step of a test
    ///
    /// - Complexity: O(r · m) for r registered objects with m members each.
    package func checkInvariants() {
        for (id, o) in registry.entries {
            precondition(o.objectID == id, "\(o.objectID) is registered under \(id)")
            precondition(o.belongs(to: self), "\(id) is registered here but belongs to another context")
        }
        for o in touched where !o.isDeletedFlag || o.isInsertedFlag {
            precondition(registry[o.objectID] === o, "\(o.objectID) has changes but is not registered")
        }
        for o in registry.all {
            for p in o.meta.toManys {
                guard let list = o.manys[p.slot] else { continue }
                list.checkInvariants("\(o.objectID).\(p.name)")
                if !o.isDeletedFlag && list.isLoaded {
                    for m in list.ids { checkPointsBack(o, p, ObjectID(entityName: p.target.name, rowID: m)) }
                }
            }
            if o.isFault || o.isDeletedFlag { continue }
            for p in o.meta.toOnes {
                if let t = o.ones[p.slot] { checkPointsBack(o, p, t) }
            }
        }
    }

    /// `o.p` includes `t`, so wherever `t`'s side is known it must include `o`.
    private func checkPointsBack(_ o: ManagedObject, _ p: PropertyDescription, _ t: ObjectID) {
        guard let target = registry[t], !target.isDeletedFlag else { return }
        let inverse = p.inverse!
        let back: Bool
        if inverse.isToOne {
            if target.isFault { return }
            back = target.ones[inverse.slot] == o.objectID
        } else {
            guard let list = target.manys[inverse.slot] else { return }
            back = list.isLoaded ? list.contains(o.objectID.rowID) : !list.removed.contains(o.objectID.rowID)
        }
        precondition(back, "\(o.objectID).\(p.name) includes \(t), but \(t).\(inverse.name) does not point back")
    }
}
