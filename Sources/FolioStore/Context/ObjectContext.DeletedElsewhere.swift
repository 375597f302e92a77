extension ObjectContext {
    /// Objects another context or process deleted while this context still
    /// had them in use. Each stays with the context, marked deleted, so that
    /// using it is never a crash: reads give its last values, a write is
    /// kept on the object, and the next save throws
    /// ``StoreError/deletedElsewhere(entity:id:keys:)`` naming it until
    /// ``rollback()`` lets the writes go. The objects are held weakly; the
    /// context lets go of the live ones when it goes.
    struct DeletedElsewhere {
        private final class Weak {
            weak var object: ManagedObject?
            init(_ object: ManagedObject) { self.object = object }
        }

        private var kept: [Weak] = []
        /// The keys written to each object since its deletion was merged, in the order first written.
        private var written: [(id: ObjectID, keys: [String])] = []

        /// The kept objects still alive.
        var objects: [ManagedObject] { kept.compactMap(\.object) }

        /// Whether something was written to a deleted object since the last save or rollback.
        var hasWrites: Bool { !written.isEmpty }

        /// Marks `o`, which this context just learned was deleted elsewhere, and keeps it with the context.
        mutating func keep(_ o: ManagedObject) {
            o.isDeletedFlag = true
            o.isDeletedElsewhere = true
            // Dead entries go when the list doubles, so it stays in proportion to the live ones.
            if kept.count >= 64, kept.count.nonzeroBitCount == 1 { kept.removeAll { $0.object == nil } }
            kept.append(Weak(o))
        }

        /// Keeps a write to a deleted object on the object (attributes and to-ones) and notes it for the next save.
        mutating func write(_ o: ManagedObject, _ p: PropertyDescription, _ slot: ManagedSlot) {
            switch (p.kind, slot.storage) {
            case (.attribute, .value(let v)) where !o.isFault: o.attrs[p.slot] = v
            case (.toOne, .one(let id)) where !o.isFault: o.ones[p.slot] = id
            default: break
            }
            if let i = written.firstIndex(where: { $0.id == o.objectID }) {
                if !written[i].keys.contains(p.name) { written[i].keys.append(p.name) }
            } else {
                written.append((o.objectID, [p.name]))
            }
        }

        /// Throws for the first object written after its deletion elsewhere.
        func refuseWrites() throws {
            guard let first = written.first else { return }
            throw StoreError.deletedElsewhere(entity: first.id.entityName, id: first.id.rowID, keys: first.keys)
        }

        /// Forgets the writes (a rollback); the objects stay deleted.
        mutating func discardWrites() { written.removeAll() }
    }
}
