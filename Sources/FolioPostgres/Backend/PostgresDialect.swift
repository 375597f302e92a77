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
    /// `column = ANY(list)`, the list bound as text and split by
    /// `string_to_array`, which the planner folds, with the cast, into a
    /// constant: a few IDs are probed through an index, many are hashed once
    /// and each scanned row looked up (a list kept as a parameter, or cast
    /// by the stable `::bigint[]` from text, is tested against every row
    /// instead). Planned with its list each time (see ``PGStatementCache``):
    /// the best plan depends on the list's length and the table's size.
    func isOneOf(_ column: String, ids marker: String) -> String {
        "\(column) = ANY(string_to_array(\(marker), ',')::bigint[]) \(PGStatementCache.plannedEachTime)"
    }
    func idList(_ ids: [Int64]) -> StoreValue { .text(ids.map(String.init).joined(separator: ",")) }
}
