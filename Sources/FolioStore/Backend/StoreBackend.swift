/// The narrow interface between contexts and a SQL database. SQLite is the
/// implementation today; nothing above this protocol speaks SQLite.
/// Implementations are used under the coordinator's lock.
protocol StoreBackend: AnyObject {
    /// Where the data lives, for messages.
    var path: String { get }
    /// Creates the tables or migrates them to `schema`.
    func prepare(_ schema: Schema) throws
    /// Runs a fetch and returns each row's ID and values.
    func fetchRows(_ plan: FetchPlan) throws -> [(Int64, StoredRow)]
    /// Runs a fetch and returns each row's ID and the plan's key columns.
    func fetchKeys(_ plan: FetchPlan) throws -> [(Int64, [StoreValue])]
    /// Counts the rows a fetch would return.
    func count(_ plan: FetchPlan) throws -> Int
    /// Loads rows by ID; missing IDs are absent from the result.
    func rows(of entity: EntityDescription, ids: [Int64]) throws -> [Int64: StoredRow]
    /// The stored members of a to-many relationship, in order.
    func members(of property: PropertyDescription, owner: Int64) throws -> [Int64]
    /// Writes a save in one transaction and returns the inserted objects' permanent IDs, in insert order.
    func commit(_ batch: SaveBatch, author: String) throws -> [ObjectID]
    /// History written by others after `position`: (position, changes).
    func history(after position: Int64, excludingAuthor author: String) throws -> [(Int64, ChangeSet)]
    /// The newest history position.
    func latestHistoryPosition() throws -> Int64
    /// Records how far `reader` has read and trims history every live reader has seen.
    func acknowledge(reader: String, position: Int64) throws
    /// Whether another connection changed the database since the last call.
    func dataVersionChanged() throws -> Bool
}

/// A row as stored: attribute values in declaration order, then to-one targets.
struct StoredRow: Sendable {
    var attributes: [StoreValue]
    var toOnes: [ObjectID?]
}

/// A translated fetch: SQL fragments over table aliases `t0` (the entity) and
/// `t1...` (joined to-one targets), with bound values.
struct FetchPlan {
    var entity: EntityDescription
    var joins: [String] = []
    var whereSQL: String?
    var bindings: [StoreValue] = []
    var orderBy: [(sql: String, ascending: Bool)] = []
    var keyColumns: [String] = []
    var limit: Int?
    var offset: Int?
    var restrictToIDs: [Int64]?
}

/// Everything one save writes.
struct SaveBatch {
    struct Insert { var entity: EntityDescription; var id: ObjectID; var attrs: [StoreValue]; var ones: [ObjectID?] }
    struct Update {
        var entity: EntityDescription; var id: ObjectID
        var attrs: [(PropertyDescription, StoreValue)]; var ones: [(PropertyDescription, ObjectID?)]
    }
    struct Membership { var property: PropertyDescription; var owner: ObjectID; var member: ObjectID }
    struct Order { var property: PropertyDescription; var owner: ObjectID; var members: [ObjectID] }

    var inserts: [Insert] = []
    var updates: [Update] = []
    var deletes: [(EntityDescription, ObjectID)] = []
    var joinAdds: [Membership] = []
    var joinRemoves: [Membership] = []
    var orders: [Order] = []
    /// Updated and deleted objects for the history (inserted ones come from the inserts).
    var changes = ChangeSet()

    /// Whether any written value refers to an object inserted by this save.
    var refersToNewObjects: Bool {
        inserts.contains { $0.ones.contains { $0?.isTemporary == true } }
            || updates.contains { $0.ones.contains { $0.1?.isTemporary == true } }
            || joinAdds.contains { $0.owner.isTemporary || $0.member.isTemporary }
            || orders.contains { $0.owner.isTemporary || $0.members.contains(where: \.isTemporary) }
    }
}
