/// What a batch request hands back, as Core Data's `resultType` chooses:
/// nothing but success, how many objects it touched, or their IDs.
///
///     var request = BatchDeleteRequest<Planet>(predicate: #Predicate { $0.position > 7 })
///     request.resultType = .objectIDs
///     let gone = try context.execute(request).objectIDs
public enum BatchResultType: Sendable {
    /// Only whether it worked (Core Data's `.statusOnly`).
    case statusOnly
    /// The number of objects inserted, updated or deleted.
    case count
    /// The IDs of those objects (Core Data's `.objectIDs`).
    case objectIDs
}

/// The result of ``ObjectContext/execute(_:)-(BatchInsertRequest<Entity>)``
/// and its update and delete forms. ``count`` is always filled in;
/// ``objectIDs`` only for ``BatchResultType/objectIDs``.
///
///     let result = try context.execute(BatchUpdateRequest<Planet>(predicate: nil).setting(\.visited, to: true))
///     print(result.count)
public struct BatchResult: Sendable, Equatable {
    /// What the request asked for.
    public let resultType: BatchResultType
    /// How many objects of the request's entity were inserted, updated or
    /// deleted (objects deleted by a cascade are not counted, as in Core Data).
    public let count: Int
    /// Their IDs in row order, for ``BatchResultType/objectIDs``; empty otherwise.
    public let objectIDs: [ObjectID]
}
