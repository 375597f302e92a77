/// How a context's save resolves conflicts with other saves: objects it
/// writes whose rows another context, process or machine changed since this
/// context read them (Core Data's merge policies). Whatever the policy, no
/// save silently loses another's update: each policy decides, property by
/// property, which side a key takes. A deletion here of an object changed
/// there is kept by the object-trumping policies and dropped by the
/// store-trumping ones (the object takes the stored values); a change here
/// to an object deleted there is dropped by every policy but `.error`, and
/// the object leaves the context.
///
///     context.mergePolicy = .mergeByPropertyObjectTrump
///     try context.save()
public enum MergePolicy: Sendable, Equatable {
    /// The save fails with ``StoreError/conflict(_:)`` naming every object
    /// and key in conflict, with the stored and the context's values; nothing
    /// is written and the context keeps its changes. The default.
    case error
    /// Keys changed on one side only take that side's value; a key changed
    /// on both takes the store's.
    case mergeByPropertyStoreTrump
    /// Keys changed on one side only take that side's value; a key changed
    /// on both takes the context's.
    case mergeByPropertyObjectTrump
    /// The context's object is written whole, over what the store holds.
    case overwrite
    /// The context's changes to the objects in conflict are discarded for
    /// what the store holds; its other changes are saved.
    case rollback
}
