/// A translated fetch: SQL fragments over table aliases `t0` (the entity) and
/// `t1...` (joined to-one targets), with bound values.
package struct FetchPlan {
    package var entity: EntityDescription
    package var joins: [String] = []
    package var whereSQL: String?
    package var bindings: [StoreValue] = []
    package var orderBy: [(sql: String, ascending: Bool)] = []
    package var keyColumns: [String] = []
    package var limit: Int?
    package var offset: Int?
    package var restrictToIDs: [Int64]?
    /// The joined to-one targets: each alias and its entity.
    package var joined: [(alias: String, entity: EntityDescription)] = []
    /// Only rows whose joined object at one of these aliases has one of these IDs (any alias matching).
    package var joinedIDs: [(alias: String, ids: [Int64])] = []
}
