/// What the shared batch logic (``BatchRunner``) needs of a backend inside
/// its write transaction: a few statements, spelled through its dialect.
/// `SQLiteBackend` and the PostgreSQL backend implement it.
package protocol BatchSQL: AnyObject {
    var dialect: SQLDialect { get }
    /// Runs a statement whose rows' first column is a row ID.
    func batchIDs(_ sql: String, _ values: [StoreValue]) throws -> [Int64]
    /// Runs a statement that returns nothing.
    func batchRun(_ sql: String, _ values: [StoreValue]) throws
    /// Reserves `count` consecutive new row IDs of `entity` and returns the first.
    func batchReserveIDs(_ entity: String, count: Int) throws -> Int64
    /// Inserts the rows with IDs from `firstID` on, turning a unique failure
    /// into ``StoreError/constraintViolation(entity:key:value:)`` naming the value.
    func batchInsert(_ rows: BatchRows, firstID: Int64) throws
}
