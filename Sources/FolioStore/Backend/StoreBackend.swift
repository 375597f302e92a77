/// The narrow interface between contexts and a SQL database: SQLite here,
/// PostgreSQL in FolioPostgres; nothing above this protocol speaks either.
/// The fetch translation writes SQL through the backend's ``dialect``.
/// An instance is one connection, used by one thread at a time (the
/// coordinator's locked connections see to that); a container opens several.
package protocol StoreBackend: AnyObject {
    /// Where the data lives, for messages.
    var path: String { get }
    /// How this database spells what the fetch translation writes.
    var dialect: SQLDialect { get }
    /// Whether a seed was saved into this store (a store made whole with its seed, as SQLite's are, always was).
    func hasBeenSeeded() throws -> Bool
    /// Records, inside the write transaction that saves the seed, that it was saved.
    func recordSeeded() throws
    /// Creates the tables or migrates them to `schema`.
    func prepare(_ schema: Schema) throws
    /// As ``prepare(_:)``; a store it creates gets the rows `seed` makes,
    /// in the same transaction, marked seeded. (A new file is made whole
    /// with its seed before any connection opens it, so SQLite ignores it.)
    func prepare(_ schema: Schema, seed: (() throws -> SeedRows)?) throws
    /// Runs a fetch and returns each row's ID and values.
    func fetchRows(_ plan: FetchPlan) throws -> [(Int64, StoredRow)]
    /// Runs a fetch and returns each row's ID and the plan's key columns.
    func fetchKeys(_ plan: FetchPlan) throws -> [(Int64, [StoreValue])]
    /// ``fetchKeys(_:)`` a row at a time: `body` sees each row's ID and key
    /// columns, in a buffer that is only valid during the call.
    func fetchKeys(_ plan: FetchPlan, each body: (Int64, borrowing [StoreValue]) throws -> Void) throws
    /// Counts the rows a fetch would return.
    func count(_ plan: FetchPlan) throws -> Int
    /// Loads rows by ID; missing IDs are absent from the result.
    func rows(of entity: EntityDescription, ids: [Int64]) throws -> [Int64: StoredRow]
    /// The stored members of a to-many relationship, in order.
    func members(of property: PropertyDescription, owner: Int64) throws -> [Int64]
    /// Writes a save in one transaction and returns the inserted objects' permanent IDs, in insert order.
    /// Inside a write transaction the save becomes part of it; after
    /// ``beginWriting(until:)`` it commits the transaction that opened.
    func commit(_ batch: SaveBatch, author: String) throws -> [ObjectID]
    /// Runs a batch request straight in SQL in one transaction with its
    /// history row (after ``beginWriting(until:)``, the transaction that
    /// opened): its checks throw before anything is written, and on any
    /// failure nothing is.
    func execute(_ batch: BatchWrite, author: String) throws -> BatchOutcome
    /// Whether the store lives in memory (one connection, one process).
    var isInMemory: Bool { get }
    /// Takes the store's write lock and returns the backend to use until
    /// ``endWriteTransaction(commit:)``: its reads see the latest committed
    /// state of every process, and no other writer commits meanwhile. For an
    /// in-memory store it is this backend, to be used under the coordinator's lock.
    func beginWriteTransaction() throws -> StoreBackend
    /// Ends the write transaction held by this backend (one `beginWriteTransaction` returned).
    func endWriteTransaction(commit: Bool) throws
    /// The newest history position.
    func latestHistoryPosition() throws -> Int64
    /// The identifier written when the store was made (or first opened for
    /// writing): a store made again at the same place gets another. Nil for
    /// an older store opened only read-only since.
    func storeIdentifier() throws -> String?
    /// Takes the store's write lock for a save, waiting for other writers
    /// until `deadline` (`DispatchTime` uptime nanoseconds), then `busy`.
    func beginWriting(until deadline: UInt64) throws
    /// Takes the write lock for the save or batch request that follows at
    /// once, as ``beginWriting(until:)`` does; a server backend sends it with
    /// that write's first statement, one round trip less.
    func beginWritingForSave(until deadline: UInt64) throws
    /// Whether a write transaction is open on this connection (or will open with its next statement).
    var isWriting: Bool { get }
    /// Ends an open write transaction without writing anything.
    func abandonWriting()
    /// A deadline `busyTimeout` from now.
    var deadlineFromNow: UInt64 { get }
    /// A change feed for `reader` with a connection of its own; nil for a
    /// store no other connection can write (in memory).
    func makeChangeFeed(reader: String) throws -> StoreChangeFeed?
    /// Gives back the memory of pages the connection cached and no longer uses.
    func releaseCachedPages()
    /// Ends a server session no transaction needs (the next statement opens
    /// another), so that a container that only reads holds none.
    func releaseIdleSession()
}

extension StoreBackend {
    package func prepare(_ schema: Schema, seed: (() throws -> SeedRows)?) throws { try prepare(schema) }
    func beginWritingForSave(until deadline: UInt64) throws { try beginWriting(until: deadline) }
    /// A server's connection caches nothing on this side.
    package func releaseCachedPages() {}
    /// A file's connection costs the server nothing: it stays.
    package func releaseIdleSession() {}
    /// Reads every row first; a backend that can, hands them over as they come.
    package func fetchKeys(_ plan: FetchPlan, each body: (Int64, borrowing [StoreValue]) throws -> Void) throws {
        for (id, values) in try fetchKeys(plan) { try body(id, values) }
    }
}

/// A row as stored: attribute values in declaration order, then to-one
/// targets, and its ``RowVersion`` (0 for a row that is not stored).
package struct StoredRow: Sendable {
    package var attributes: [StoreValue]
    package var toOnes: [ObjectID?]
    package var version: Int64

    package init(attributes: [StoreValue], toOnes: [ObjectID?], version: Int64 = 0) {
        self.attributes = attributes
        self.toOnes = toOnes
        self.version = version
    }
}
