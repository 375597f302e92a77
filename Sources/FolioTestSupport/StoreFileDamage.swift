import CSQLite
import Foundation

/// Damage done to a store file the way a failing disk does it, for the
/// tests of damaged stores: fold the log in, find a table's leaf pages,
/// overwrite a page's header.
///
/// ```swift
/// #expect(StoreFileDamage.foldLog(path))
/// for page in StoreFileDamage.leafPages(path, of: "TestAnimal") { try StoreFileDamage.damage(path, page: page) }
/// ```
public enum StoreFileDamage {
    /// Folds the write-ahead log into the file, so that damage to the file's
    /// pages is what every reader reads; false if the checkpoint failed.
    @discardableResult
    public static func foldLog(_ path: String) -> Bool {
        var db: OpaquePointer?
        defer { sqlite3_close(db) }
        guard sqlite3_open(path, &db) == SQLITE_OK else { return false }
        // A store still open may be reading (its change watcher): the checkpoint waits for it, as a reader would.
        sqlite3_busy_timeout(db, 30_000)
        // A first read puts the connection in WAL mode; before it a checkpoint does nothing.
        guard sqlite3_exec(db, "SELECT count(*) FROM sqlite_master", nil, nil, nil) == SQLITE_OK else { return false }
        return sqlite3_wal_checkpoint_v2(db, nil, SQLITE_CHECKPOINT_TRUNCATE, nil, nil) == SQLITE_OK
    }

    /// The numbers (from 1) of the leaf pages of `table`, and of its indexes
    /// when `withIndexes`, in file order.
    public static func leafPages(_ path: String, of table: String, withIndexes: Bool = false) -> [Int] {
        var db: OpaquePointer?
        defer { sqlite3_close(db) }
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else { return [] }
        let owners = withIndexes ? "SELECT name FROM sqlite_master WHERE tbl_name = ?1" : "SELECT ?1"
        var statement: OpaquePointer?
        defer { sqlite3_finalize(statement) }
        let sql = "SELECT pageno FROM dbstat WHERE pagetype = 'leaf' AND name IN (\(owners)) ORDER BY pageno"
        guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK else { return [] }
        sqlite3_bind_text(statement, 1, table, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
        var pages: [Int] = []
        while sqlite3_step(statement) == SQLITE_ROW { pages.append(Int(sqlite3_column_int64(statement, 0))) }
        return pages
    }

    /// Overwrites the header and cell pointers of page `number` (from 1),
    /// the part every reader of the page relies on.
    public static func damage(_ path: String, page number: Int, pageSize: Int = 4096) throws {
        guard let handle = FileHandle(forUpdatingAtPath: path) else { throw CocoaError(.fileNoSuchFile) }
        defer { try? handle.close() }
        let index = number - 1
        try handle.seek(toOffset: UInt64(index * pageSize))
        try handle.write(contentsOf: Data((0..<64).map { UInt8(($0 * 37 + index) & 0xFF) }))
    }
}
