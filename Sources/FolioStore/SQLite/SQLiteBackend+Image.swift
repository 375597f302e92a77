import CSQLite
import Foundation

extension SQLiteBackend {
    /// The whole in-memory database as the bytes of a database file, marked
    /// for WAL, with no history rows: a new store to be placed whole.
    func storeImage() throws -> Data {
        precondition(isInMemory, "only an in-memory store is made into an image")
        // Rows only the building container wrote; the position sequence is kept.
        try connection.execute("DELETE FROM folio_history; DELETE FROM folio_readers")
        var size: sqlite3_int64 = 0
        guard let bytes = sqlite3_serialize(connection.db, "main", &size, 0) else {
            throw StoreError.sqlite(code: SQLITE_NOMEM, message: "could not serialise the new store", sql: "")
        }
        defer { sqlite3_free(bytes) }
        var image = Data(bytes: bytes, count: Int(size))
        // File format write and read versions: 2 is WAL, so the file opens in WAL mode from its first use.
        image[18] = 2
        image[19] = 2
        return image
    }
}
