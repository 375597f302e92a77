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
    /// Inside a write transaction the save becomes part of it.
    func commit(_ batch: SaveBatch, author: String) throws -> [ObjectID]
    /// Whether the store lives in memory (one connection, one process).
    var isInMemory: Bool { get }
    /// Takes the store's write lock and returns the backend to use until
    /// ``endWriteTransaction(commit:)``: its reads see the latest committed
    /// state of every process, and no other writer commits meanwhile. For an
    /// in-memory store it is this backend, to be used under the coordinator's lock.
    func beginWriteTransaction() throws -> StoreBackend
    /// Ends the write transaction held by this backend (one `beginWriteTransaction` returned).
    func endWriteTransaction(commit: Bool) throws
    /// History written by others after `position`: (position, changes).
    func history(after position: Int64, excludingAuthor author: String) throws -> [(Int64, ChangeSet)]
    /// The newest history position.
    func latestHistoryPosition() throws -> Int64
    /// Records how far `reader` has read and trims history every live reader has seen.
    func acknowledge(reader: String, position: Int64) throws
    /// Adds `reader` at the newest history position, in one transaction (so
    /// no trim can pass a commit it has not seen), and returns that position.
    func registerReader(_ reader: String) throws -> Int64
}

/// A row as stored: attribute values in declaration order, then to-one targets.
struct StoredRow: Sendable {
    var attributes: [StoreValue]
    var toOnes: [ObjectID?]
}
