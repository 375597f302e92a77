/// Deletes every object a predicate matches, or the objects with given IDs,
/// straight in the store in one transaction, as Core Data's
/// `NSBatchDeleteRequest` does.
///
/// Delete rules are applied in SQL, as a save applies them: `cascade`
/// deletes the related objects too, `nullify` takes the deleted objects out
/// of their relationships (foreign keys cleared, join-table rows removed),
/// and `deny` refuses the whole request while a relationship still has
/// members the request does not delete. Unlike Core Data, the deletion
/// reaches every context (registered objects are turned into deleted ones)
/// and every live `FetchedResultsController`, in this process and in
/// others, as one change. The predicate is evaluated by the store: unsaved
/// changes do not count.
///
///     let request = BatchDeleteRequest<Animal>(predicate: #Predicate { $0.legs > 100 })
///     try context.execute(request)
public struct BatchDeleteRequest<Entity: ManagedObject> {
    /// Which objects, when deleting by predicate; nil deletes all of the entity.
    public let predicate: Predicate<Entity>?
    /// Which objects, when deleting by ID (IDs of other entities, and of rows already gone, are ignored).
    public let objectIDs: [ObjectID]?
    /// What ``ObjectContext/execute(_:)-(BatchDeleteRequest<Entity>)`` returns besides the count.
    public var resultType: BatchResultType = .statusOnly

    /// Deletes the objects `predicate` matches (all of them when nil).
    ///
    ///     BatchDeleteRequest<Planet>(predicate: #Predicate { $0.name == "Pluto" })
    public init(predicate: Predicate<Entity>? = nil) {
        self.predicate = predicate
        objectIDs = nil
    }

    /// Deletes the objects with these IDs, as Core Data's `init(objectIDs:)`.
    ///
    ///     BatchDeleteRequest<Planet>(objectIDs: [pluto.objectID])
    public init(objectIDs: [ObjectID]) {
        predicate = nil
        self.objectIDs = objectIDs
    }
}
