/// What one save changed: inserted, updated (with the keys that changed) and
/// deleted object IDs. Posted to a context's observers after merging another
/// context's save and for other processes' saves (all the saves one look at
/// the store found, merged into one set); a context's own unsaved changes
/// arrive as `.pending` batches, and its own save as the temporary-to-permanent
/// ID mapping (see ``ObjectContext`` for the protocol).
///
/// A change set with ``isReload`` set says that anything may have changed:
/// the store could not tell what (history this container had not read yet
/// was trimmed while it was stopped or too slow). Its ID sets are empty;
/// the context has turned its unchanged objects back into faults, and an
/// observer that keeps its own copy of the results fetches them again.
///
///     let token = context.observeChanges { changes in
///         if changes.isReload { reloadEverything(); return }
///         for (id, keys) in changes.updated where keys.contains("name") { print(id) }
///     }
public struct ChangeSet: Sendable, Equatable, Codable, CustomStringConvertible {
    /// Where a change set came from.
    public enum Origin: String, Sendable, Codable {
        /// Unsaved changes of this context, processed as one batch: what
        /// changed since the previous batch (new objects under temporary IDs).
        case pending
        /// This context saved it (or, for `willSave`, is about to).
        case thisContext
        /// Another context on the same container saved it.
        case otherContext
        /// Another process saved it to the same file.
        case otherProcess
    }

    /// Objects inserted.
    public var inserted: Set<ObjectID>
    /// Objects updated, each with the names of the properties that changed.
    public var updated: [ObjectID: Set<String>]
    /// Objects deleted.
    public var deleted: Set<ObjectID>
    /// Who made the change.
    public var origin: Origin
    /// For a save by this context (`.thisContext`): each saved new object's
    /// temporary ID and the permanent ID it has now.
    public var permanentIDs: [ObjectID: ObjectID] = [:]
    /// Anything may have changed: fetch again (the ID sets are empty).
    public var isReload = false

    /// A change set; all parts default to empty.
    ///
    ///     ChangeSet(inserted: [id])
    public init(
        inserted: Set<ObjectID> = [], updated: [ObjectID: Set<String>] = [:], deleted: Set<ObjectID> = [],
        origin: Origin = .thisContext, permanentIDs: [ObjectID: ObjectID] = [:]
    ) {
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
        self.origin = origin
        self.permanentIDs = permanentIDs
    }

    /// Whether nothing changed (a reload is never empty).
    public var isEmpty: Bool { !isReload && inserted.isEmpty && updated.isEmpty && deleted.isEmpty && permanentIDs.isEmpty }

    /// A change set saying that anything may have changed.
    ///
    ///     ChangeSet.reload(origin: .otherProcess).isReload   // true
    public static func reload(origin: Origin) -> ChangeSet {
        var changes = ChangeSet(origin: origin)
        changes.isReload = true
        return changes
    }

    /// Every ID mentioned.
    ///
    /// - Complexity: O(n) in the number of IDs.
    public var allIDs: Set<ObjectID> { inserted.union(updated.keys).union(deleted) }

    /// The change set with `origin` replaced.
    func with(origin: Origin) -> ChangeSet {
        var copy = self
        copy.origin = origin
        return copy
    }

    /// `ChangeSet(+[…] ~[…] -[…] origin)`, or `ChangeSet(reload origin)`.
    public var description: String {
        if isReload { return "ChangeSet(reload \(origin.rawValue))" }
        return "ChangeSet(+\(inserted.sorted()) ~\(updated.keys.sorted()) -\(deleted.sorted()) \(origin.rawValue))"
    }
}
