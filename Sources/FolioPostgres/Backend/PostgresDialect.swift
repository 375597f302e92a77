import FolioStore

/// PostgreSQL's spelling of the fetch translation: numbered `$n` markers,
/// real booleans, `IS NOT DISTINCT FROM`, `strpos`, and lengths in characters.
/// Text columns are made `COLLATE "C"` (by bytes, as SQLite compares and
/// ``StoreValue/compare(_:_:)`` orders them), so sorts and comparisons need
/// no clause of their own; NULL placement is the backend's ORDER BY's.
struct PostgresDialect: SQLDialect {
    func placeholder(_ index: Int) -> String { "$\(index)" }
    var trueCondition: String { "TRUE" }
    var falseCondition: String { "FALSE" }
    var nullSafeEqual: String { "IS NOT DISTINCT FROM" }
    var nullSafeNotEqual: String { "IS DISTINCT FROM" }
    func position(of needle: String, in text: String) -> String { "strpos(\(text), \(needle))" }
    func length(_ text: String) -> String { "char_length(\(text))" }
    func suffix(of text: String, count: String) -> String { "right(\(text), \(count))" }
    /// A semi-join on the list unnested, never `column = ANY(list)`: a scan
    /// tests that against every row, casting the list from text again each
    /// time (a list as long as the table costs their product), where the
    /// unnested list is cast once and hashed or probed through an index.
    /// The best plan depends on the list's length and the table's size, so
    /// the statement is planned with its list each time (see ``PGStatementCache``).
    func isOneOf(_ column: String, ids marker: String) -> String {
        "\(column) IN (SELECT unnest(\(marker)::bigint[]) \(PGStatementCache.plannedEachTime))"
    }
    func idList(_ ids: [Int64]) -> StoreValue { .text("{" + ids.map(String.init).joined(separator: ",") + "}") }
}
