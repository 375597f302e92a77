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
    /// The joined to-one targets: each alias and its entity.
    var joined: [(alias: String, entity: EntityDescription)] = []
    /// Only rows whose joined object at one of these aliases has one of these IDs (any alias matching).
    var joinedIDs: [(alias: String, ids: [Int64])] = []
}
