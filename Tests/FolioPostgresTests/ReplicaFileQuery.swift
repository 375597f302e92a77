import CSQLite

/// What a replica file holds, read as another SQLite client would (read
/// only, beside the replica's own connections).
enum ReplicaFileQuery {
    /// Every row `query` gives, each column as text (NULL as ""); nil when
    /// the file cannot be opened or the query prepared.
    static func rows(_ path: String, _ query: String) -> [[String]]? {
        var db: OpaquePointer?
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else {
            sqlite3_close(db)
            return nil
        }
        defer { sqlite3_close(db) }
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, query, -1, &statement, nil) == SQLITE_OK else { return nil }
        defer { sqlite3_finalize(statement) }
        var rows: [[String]] = []
        while sqlite3_step(statement) == SQLITE_ROW {
            rows.append((0..<sqlite3_column_count(statement)).map { sqlite3_column_text(statement, $0).map { String(cString: $0) } ?? "" })
        }
        return rows
    }

    /// The first column of the first row ("" when there is none), or what went wrong.
    static func value(_ path: String, _ query: String) -> String {
        guard let rows = rows(path, query) else { return "cannot read" }
        return rows.first?.first ?? ""
    }
}
