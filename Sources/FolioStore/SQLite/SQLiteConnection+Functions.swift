import CSQLite

/// Tells SQLite to copy a result (the Swift string does not outlive the call).
private let SQLITE_TRANSIENT = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

extension SQLiteConnection {
    /// Registers the functions the store's SQL uses on this connection:
    /// `folio_fold(text, flags)`, ``TextFolding`` in SQL (NULL stays NULL).
    func registerFunctions() {
        let flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS
        sqlite3_create_function_v2(
            db, "folio_fold", 2, flags, nil,
            { context, count, arguments in
                guard let context, count == 2, let arguments, let text = arguments[0], let flags = arguments[1],
                    sqlite3_value_type(text) != SQLITE_NULL, let bytes = sqlite3_value_text(text)
                else {
                    sqlite3_result_null(context)
                    return
                }
                let length = Int(sqlite3_value_bytes(text))
                let options = String.CompareOptions(rawValue: UInt(sqlite3_value_int64(flags)))
                let input = UnsafeBufferPointer(start: bytes, count: length)
                if SQLiteConnection.foldASCII(input, options, into: context) { return }
                let folded = TextFolding.fold(String(decoding: input, as: UTF8.self), options)
                // withCString never hands a null pointer, which SQLite would read as NULL for "".
                folded.withCString { sqlite3_result_text(context, $0, Int32(folded.utf8.count), SQLITE_TRANSIENT) }
            }, nil, nil, nil)
    }

    /// The common case without a Swift string: ASCII text, folded (only
    /// lowercased; diacritics and width leave ASCII as it is) straight into
    /// SQLite's result. False when the text is not ASCII.
    private static func foldASCII(
        _ input: UnsafeBufferPointer<UInt8>, _ options: String.CompareOptions,
        into context: OpaquePointer
    ) -> Bool {
        var upper = false
        for byte in input {
            if byte >= 0x80 { return false }
            if byte >= 65 && byte <= 90 { upper = true }
        }
        guard upper, options.contains(.caseInsensitive) else {
            // SQLite's own text pointer, never null (even for ""), copied back as it is.
            sqlite3_result_text(
                context, UnsafeRawPointer(input.baseAddress!).assumingMemoryBound(to: CChar.self),
                Int32(input.count), SQLITE_TRANSIENT)
            return true
        }
        guard let output = sqlite3_malloc64(UInt64(input.count))?.assumingMemoryBound(to: UInt8.self) else {
            sqlite3_result_error_nomem(context)
            return true
        }
        for (i, byte) in input.enumerated() { output[i] = byte >= 65 && byte <= 90 ? byte + 32 : byte }
        sqlite3_result_text(context, UnsafeRawPointer(output).assumingMemoryBound(to: CChar.self), Int32(input.count), sqlite3_free)
        return true
    }
}
