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
