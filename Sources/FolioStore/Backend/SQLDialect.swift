/// What the fetch translation must spell differently per database: the
/// predicate and sort translation (``SQLQueryBuilder``) writes its SQL
/// through a backend's dialect, so one translation serves every backend.
///
///     let placeholder = dialect.placeholder(3)   // "?" for SQLite, "$3" for PostgreSQL
package protocol SQLDialect: Sendable {
    /// The marker of the `index`th bound value (counted from 1).
    func placeholder(_ index: Int) -> String
    /// Constant conditions.
    var trueCondition: String { get }
    var falseCondition: String { get }
    /// Null-safe equality and inequality (NULL equals NULL).
    var nullSafeEqual: String { get }
    var nullSafeNotEqual: String { get }
    /// The 1-based position of `needle` in `text`, 0 when absent.
    func position(of needle: String, in text: String) -> String
    /// The length of a text in characters.
    func length(_ text: String) -> String
    /// The last `count` characters of `text`.
    func suffix(of text: String, count: String) -> String
    /// A condition that `column` is one of the IDs bound at `marker` as one
    /// ``idList(_:)`` value, however many there are.
    func isOneOf(_ column: String, ids marker: String) -> String
    /// Row IDs as one bound value for ``isOneOf(_:ids:)``.
    func idList(_ ids: [Int64]) -> StoreValue
}

/// SQLite's spelling: `?` markers, 1 and 0 for true and false, `IS`, `instr`.
struct SQLiteDialect: SQLDialect {
    func placeholder(_ index: Int) -> String { "?" }
    var trueCondition: String { "1" }
    var falseCondition: String { "0" }
    var nullSafeEqual: String { "IS" }
    var nullSafeNotEqual: String { "IS NOT" }
    func position(of needle: String, in text: String) -> String { "instr(\(text), \(needle))" }
    func length(_ text: String) -> String { "length(\(text))" }
    func suffix(of text: String, count: String) -> String { "substr(\(text), -\(count))" }
    // A JSON array: SQLite reads it with json_each and seeks each row ID.
    func isOneOf(_ column: String, ids marker: String) -> String { "\(column) IN (SELECT value FROM json_each(\(marker)))" }
    func idList(_ ids: [Int64]) -> StoreValue { .text("[" + ids.map(String.init).joined(separator: ",") + "]") }
}

extension SQLDialect {
    /// The query for a to-many's member IDs in their stored order, the
    /// owner's ID its one bound value; nil for a property stored otherwise.
    ///
    ///     dialect.membersQuery(zoo.animals)   // SELECT id FROM "Animal" WHERE "zoo" = ? ORDER BY id
    package func membersQuery(_ p: PropertyDescription) -> String? {
        let owner = placeholder(1)
        switch p.storage {
        case .inverseColumn(let column, let order):
            let by = order.map { "\(quote($0)), id" } ?? "id"
            return "SELECT id FROM \(quote(p.target.name)) WHERE \(quote(column)) = \(owner) ORDER BY \(by)"
        case .joinTable(let table, let mine, let other, let order):
            let by = order.map { "\($0), \(other)" } ?? other
            return "SELECT \(other) FROM \(quote(table)) WHERE \(mine) = \(owner) ORDER BY \(by)"
        default:
            return nil
        }
    }

    /// The statements that store a to-many's order: each member's position,
    /// one UPDATE per member, with its bound values. `row` gives an
    /// object's row ID (a save's new objects by their permanent IDs).
    ///
    ///     for (sql, values) in dialect.positionWrites(order, row: row) { try connection.run(sql, values) }
    package func positionWrites(_ order: SaveBatch.Order, row: (ObjectID) -> StoreValue) -> [(sql: String, values: [StoreValue])] {
        order.members.enumerated().compactMap { position, member in
            let at = StoreValue.integer(Int64(position))
            switch order.property.storage {
            case .inverseColumn(_, let column?):
                return (
                    "UPDATE \(quote(order.property.target.name)) SET \(quote(column)) = \(placeholder(1)) WHERE id = \(placeholder(2))",
                    [at, row(member)]
                )
            case .joinTable(let table, let mine, let other, let column?):
                return (
                    "UPDATE \(quote(table)) SET \(column) = \(placeholder(1)) WHERE \(mine) = \(placeholder(2)) AND \(other) = \(placeholder(3))",
                    [at, row(order.owner), row(member)]
                )
            default:
                return nil
            }
        }
    }
}
