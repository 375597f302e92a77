/// What one save changed: inserted, updated (with the keys that changed) and
/// deleted object IDs. Posted to a context's observers after merging another
/// context's save and for other processes' saves; a context's own unsaved
/// changes arrive as `.pending` batches, and its own save as the
/// temporary-to-permanent ID mapping (see ``ObjectContext`` for the protocol).
///
///     let token = context.observeChanges { changes in
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

    /// A change set; all parts default to empty.
    ///
    ///     ChangeSet(inserted: [id])
    public init(inserted: Set<ObjectID> = [], updated: [ObjectID: Set<String>] = [:], deleted: Set<ObjectID> = [],
                origin: Origin = .thisContext, permanentIDs: [ObjectID: ObjectID] = [:]) {
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
        self.origin = origin
        self.permanentIDs = permanentIDs
    }

    /// Whether nothing changed.
    public var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty && permanentIDs.isEmpty }

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

    /// `+3 ~2 -1 (origin)`.
    public var description: String {
        "ChangeSet(+\(inserted.sorted()) ~\(updated.keys.sorted()) -\(deleted.sorted()) \(origin.rawValue))"
    }
}
