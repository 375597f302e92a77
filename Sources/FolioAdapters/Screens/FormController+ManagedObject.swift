import FolioStore
import FolioTerminal

extension FormController {
    /// What a form following a managed object keeps alive: the object's ID
    /// and the observation of its context.
    final class FollowedObject {
        let id: ObjectID
        var observation: ObservationToken?
        init(id: ObjectID) { self.id = id }
    }

    /// Makes the form follow the object it edits (FolioTerminal's `follow(noun:read:)`
    /// over the object, told of every save by another context or process).
    /// When another context or process deletes it, the form says so and
    /// closes without writing; when they change it, the fields the user has
    /// not touched show the new values, and a change to a field the user
    /// edited is pointed out (Done keeps the user's value). Done never runs
    /// on an object that is gone, and writes only `changedValues`.
    ///
    /// ```swift
    /// form.follow(location, in: context, noun: "location") { LocationForm.values(of: $0 as! Location) }
    /// ```
    ///
    /// `lists` reads the values of the form's list sections (a build order).
    public func follow(
        _ object: ManagedObject, in context: ObjectContext, noun: String,
        values: @escaping @MainActor (ManagedObject) -> [String: String],
        lists: @escaping @MainActor (ManagedObject) -> [String: [String]] = { _ in [:] }
    ) {
        let id = object.objectID
        follow(noun: noun) {
            Self.current(id, in: context).map { Values(texts: values($0), lists: lists($0)) }
        }
        let followed = FollowedObject(id: id)
        followed.observation = context.observeChanges { [weak self] changes in
            // Only saves by others: this context's own unsaved changes (`.pending`,
            // heard while Done saves) are the user's edit, not a change elsewhere.
            guard changes.origin == .otherContext || changes.origin == .otherProcess else { return }
            self?.sourceMayHaveChanged()
        }
        followedAttachment = followed
    }

    /// The ID of the managed object the form follows, if it follows one.
    var followedObjectID: ObjectID? { (followedAttachment as? FollowedObject)?.id }

    /// The object `id` as the store has it now, or nil when it is gone.
    /// The form keeps its values apart, so the object has no unsaved changes
    /// and is read afresh: a deletion not yet heard is found too.
    private static func current(_ id: ObjectID, in context: ObjectContext) -> ManagedObject? {
        let registered = context.object(with: id)
        if !registered.hasChanges && !registered.isFault { context.refresh(registered, mergeChanges: false) }
        guard let object = try? context.existingObject(with: id), !object.isDeleted else { return nil }
        return object
    }
}
