import Synchronization

/// Identifies one object of one entity in a store. Temporary (negative row
/// ID) from insertion until the first save, then permanent; the same in
/// every context and every process that opens the file.
///
///     let id = planet.objectID
///     id.isTemporary          // false after a save
///     id.description          // "Planet/3"
public struct ObjectID: Hashable, Comparable, Sendable, CustomStringConvertible, Codable {
    /// The entity's name.
    public let entityName: String
    /// The row ID in the entity's table; negative while temporary.
    public let rowID: Int64

    /// An ID for a stored row. Use it to look objects up across contexts or
    /// in IDs received from other processes.
    ///
    ///     context.object(with: ObjectID(entityName: "Planet", rowID: 3))
    public init(entityName: String, rowID: Int64) {
        self.entityName = entityName
        self.rowID = rowID
    }

    /// Whether the object has not been saved yet.
    public var isTemporary: Bool { rowID < 0 }

    /// `Entity/rowID`, with a `t` before temporary numbers: `Planet/t4`.
    public var description: String { isTemporary ? "\(entityName)/t\(-rowID)" : "\(entityName)/\(rowID)" }

    /// Hashes the row ID only: entities are few, and hashing the name on every lookup is measurable.
    public func hash(into hasher: inout Hasher) { hasher.combine(rowID) }

    /// Same entity and row.
    public static func == (a: ObjectID, b: ObjectID) -> Bool { a.rowID == b.rowID && a.entityName == b.entityName }

    /// Orders by entity name, then row ID, with temporary IDs after every
    /// permanent one in creation order: the store's tie-breaker for equal
    /// sort keys. A save gives new objects permanent IDs above every stored
    /// one, in creation order, so an unsaved object keeps its place among
    /// equal keys when it is saved.
    ///
    ///     ObjectID(entityName: "A", rowID: 1) < ObjectID(entityName: "A", rowID: 2)   // true
    public static func < (a: ObjectID, b: ObjectID) -> Bool {
        guard a.entityName == b.entityName else { return a.entityName < b.entityName }
        switch (a.isTemporary, b.isTemporary) {
        case (false, false): return a.rowID < b.rowID
        case (true, true): return a.rowID > b.rowID  // -1 was created before -2
        case (let first, _): return !first
        }
    }

    private static let nextTemporary = Atomic<Int64>(0)

    static func temporary(_ entity: String) -> ObjectID {
        ObjectID(entityName: entity, rowID: -nextTemporary.add(1, ordering: .relaxed).newValue)
    }
}
