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
    public func checkInvariants() {
        for (id, o) in registry.entries {
            precondition(o.objectID == id, "\(o.objectID) is registered under \(id)")
            precondition(o.managedContext === self, "\(id) is registered here but belongs to another context")
        }
        for o in touched where !o.isDeletedFlag || o.isInsertedFlag {
            precondition(registry[o.objectID] === o, "\(o.objectID) has changes but is not registered")
        }
        for o in registry.all {
            if o.isFault || o.isDeletedFlag { continue }
            for p in o.meta.toOnes {
                if let t = o.ones[p.slot] { checkPointsBack(o, p, t) }
            }
            for p in o.meta.toManys {
                guard let list = o.manys[p.slot] else { continue }
                precondition(Set(list).count == list.count, "\(o.objectID).\(p.name) lists a member twice")
                for m in list { checkPointsBack(o, p, m) }
            }
        }
    }

    /// `o.p` includes `t`, so wherever `t`'s inverse is loaded it must include `o`.
    private func checkPointsBack(_ o: ManagedObject, _ p: PropertyDescription, _ t: ObjectID) {
        guard let target = registry[t], !target.isFault, !target.isDeletedFlag else { return }
        let back: [ObjectID]? = p.inverse.isToOne ? target.ones[p.inverse.slot].map { [$0] } ?? [] : target.manys[p.inverse.slot]
        guard let back else { return }
        precondition(back.contains(o.objectID), "\(o.objectID).\(p.name) includes \(t), but \(t).\(p.inverse.name) does not point back")
    }
}
