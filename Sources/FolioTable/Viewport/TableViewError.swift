/// A request naming a row or section that does not exist (UIKit's M3).
///
/// ```swift
/// do { try table.scrollToRow(at: path, at: .top) }
/// catch .rowOutOfBounds(let path, let count, _) { print(path, count) }
/// ```
public enum TableViewError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The row is past its section's end.
    case rowOutOfBounds(IndexPath, rowCount: Int, table: String)
    /// The section is past the table's end.
    case sectionOutOfBounds(section: Int, sectionCount: Int, table: String)

    /// UIKit's M3 text (with our wording for a missing section).
    ///
    /// ```swift
    /// print(error)   // Attempted to scroll the table view to an out-of-bounds row (7) ...
    /// ```
    public var description: String {
        switch self {
        case .rowOutOfBounds(let path, let count, let table):
            "Attempted to scroll the table view to an out-of-bounds row (\(path.row)) when there are only \(count) rows in section \(path.section). Table view: \(table)"
        case .sectionOutOfBounds(let section, let count, let table):
            "Attempted to scroll the table view to an out-of-bounds section (\(section)) when there are only \(count) sections. Table view: \(table)"
        }
    }
}
