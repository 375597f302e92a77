import CSQLite

/// Tells SQLite to copy a result (the Swift string does not outlive the call).
private let SQLITE_TRANSIENT = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

extension SQLiteConnection {
    /// Registers the functions the store's SQL uses on this connection:
    /// `folio_fold(text, flags)`, ``TextFolding`` in SQL (NULL stays NULL).
    func registerFunctions() {
        let flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS
        sqlite3_create_function_v2(db, "folio_fold", 2, flags, nil, { context, count, arguments in
            guard let context, count == 2, let arguments, let text = arguments[0], let options = arguments[1],
                  sqlite3_value_type(text) != SQLITE_NULL, let bytes = sqlite3_value_text(text) else {
                sqlite3_result_null(context)
                return
            }
            let length = Int(sqlite3_value_bytes(text))
            let string = String(decoding: UnsafeBufferPointer(start: bytes, count: length), as: UTF8.self)
            let folded = TextFolding.fold(string, String.CompareOptions(rawValue: UInt(sqlite3_value_int64(options))))
            // withCString never hands a null pointer, which SQLite would read as NULL for "".
            folded.withCString { sqlite3_result_text(context, $0, Int32(folded.utf8.count), SQLITE_TRANSIENT) }
        }, nil, nil, nil)
    }
}
