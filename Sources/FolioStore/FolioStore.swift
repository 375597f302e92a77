import CSQLite

/// The version of SQLite the store runs on, for diagnostics.
///
///     print(FolioStore.sqliteVersion)   // "3.40.1"
public enum FolioStore {
    public static var sqliteVersion: String { String(cString: sqlite3_libversion()) }
}
