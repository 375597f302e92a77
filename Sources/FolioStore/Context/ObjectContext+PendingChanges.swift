import Dispatch

// Unsaved changes reach observers in batches, as Core Data's
// `NSManagedObjectContextObjectsDidChange` does: each change marks its object
// unprocessed, and `processPendingChanges()` turns everything marked since the
// previous batch into one `.pending` change set (see ObjectContext's docs).

extension ObjectContext {
    /// Processes the unsaved changes made since the last batch: observers of
    /// ``observeChanges(_:)`` hear them as one change set with origin
    /// `.pending` (new objects under their temporary IDs, each changed
    /// object with the keys that changed), and the implicit undo group ends,
    /// so later changes undo separately. The context calls it itself at the
    /// end of each main-actor turn in which the view context changed, at the
    /// end of each `perform`, before `save()` and at `rollback()`.
    ///
    ///     animal.habitat = "Savanna"
    ///     context.processPendingChanges()   // observers hear ~animal [habitat] (pending)
    public func processPendingChanges() {
        undoManager?.closeImplicitGroup()
        guard !unprocessed.isEmpty else { return }
        var batch = unprocessed
        unprocessed = []
        let telling = !observers.isEmpty
        var changes = ChangeSet(origin: .pending)
        if telling { changes.updated.reserveCapacity(batch.count) }
        // Objects changed in the same keys share one set of names, not one each.
        var names = DirtyKeys.NameCache()
        // One pass over the batch: in a big save each object is a cache miss.
        for o in batch {
            if o.isBehindStore && !o.isDeletedFlag && !o.hasChanges { readAgain(o) }
            o.isUnprocessed = false
            let present = o.belongs(to: self) && !o.isDeletedFlag && (o.isInsertedFlag || !o.objectID.isTemporary)
            if telling {
                if present && !o.reportedPresent {
                    changes.inserted.insert(o.objectID)
                } else if !present && o.reportedPresent {
                    changes.deleted.insert(o.objectID)
                } else if present && !o.dirtyKeys.isEmpty {
                    // An object is in a batch once, so its entry is new: no empty set is made to be replaced.
                    let keys = names.names(of: o.dirtyKeys, in: o.meta)
                    if let earlier = changes.updated.updateValue(keys, forKey: o.objectID) {
                        changes.updated[o.objectID]!.formUnion(earlier)
                    }
                }
            }
            o.reportedPresent = present
            o.dirtyKeys.removeAll()
        }
        // Let go of the objects while they are in the cache, not after the observers ran.
        batch = []
        if !changes.isEmpty { notify(changes) }
    }

    /// Marks `object` changed since the last batch (`key` names the property, if one changed).
    func noteChange(_ object: ManagedObject, _ key: PropertyDescription? = nil) {
        requireConfinement()
        if let key { object.dirtyKeys.insert(key) }
        guard !object.isUnprocessed else { return }
        object.isUnprocessed = true
        unprocessed.append(object)
        if let box = mainBox, !processingScheduled {
            processingScheduled = true
            // Once per main-actor turn, after everything already queued, like Core Data's run-loop observer.
            DispatchQueue.main.async { box.context?.processScheduledChanges() }
        }
    }

    /// The end of the main-actor turn in which the view context changed.
    func processScheduledChanges() {
        processingScheduled = false
        processPendingChanges()
    }

    /// An object behind the store whose changes were all undone takes the
    /// stored row (on next access); every key is reported, as any may differ.
    private func readAgain(_ o: ManagedObject) {
        untouch(o)
        o.isBehindStore = false
        o.committed = nil
        o.isFault = true
        o.attrs = []
        o.ones = []
        for p in o.meta.attributes + o.meta.toOnes { o.dirtyKeys.insert(p) }
    }

    /// Marks every object with unsaved changes as changed in all its changed
    /// keys, so that the next batch reports them back (after a rollback).
    func noteDiscarding(_ objects: [ManagedObject]) {
        for o in objects {
            for key in o.changedKeys { if let p = o.meta.byName[key] { o.dirtyKeys.insert(p) } }
            // Keys the store changed meanwhile come back too.
            if o.isBehindStore { for p in o.meta.attributes + o.meta.toOnes { o.dirtyKeys.insert(p) } }
            noteChange(o)
        }
    }
}

/// The view context as the main actor's turns see it: the compiler checks
/// that the scheduled processing, and deliveries, run on the main actor.
@MainActor
final class MainContextBox {
    // Written once, in init; read only through `context`, which the compiler keeps on the main actor.
    nonisolated(unsafe) private weak var target: ObjectContext?
    nonisolated init(_ context: ObjectContext) { target = context }
    var context: ObjectContext? { target }
}
