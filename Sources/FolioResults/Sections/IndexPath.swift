/// The position of a row: a section and a row within it, as UIKit's
/// `IndexPath` for table and collection views.
///
/// Index paths order section first, then row, and print as `[section, row]`.
///
/// ```swift
/// let path = IndexPath(row: 3, section: 0)
/// print(path)                                   // [0, 3]
/// path < IndexPath(row: 0, section: 1)          // true
/// ```
public struct IndexPath: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The section, counted from zero.
    public var section: Int
    /// The row within the section, counted from zero.
    ///
    /// ```swift
    /// IndexPath(row: 2, section: 1).row   // 2
    /// ```
    public var row: Int

    /// Creates an index path from a row and a section, as UIKit spells it.
    ///
    /// ```swift
    /// let path = IndexPath(row: 0, section: 2)
    /// ```
    public init(row: Int, section: Int) {
        self.section = section
        self.row = row
    }

    /// Creates an index path from a collection-view item and a section.
    ///
    /// ```swift
    /// IndexPath(item: 4, section: 0).row   // 4
    /// ```
    public init(item: Int, section: Int) {
        self.init(row: item, section: section)
    }

    /// The row under its collection-view name.
    ///
    /// ```swift
    /// IndexPath(row: 4, section: 0).item   // 4
    /// ```
    public var item: Int {
        get { row }
        set { row = newValue }
    }

    /// Orders by section, then by row.
    ///
    /// ```swift
    /// IndexPath(row: 9, section: 0) < IndexPath(row: 0, section: 1)   // true
    /// ```
    public static func < (lhs: IndexPath, rhs: IndexPath) -> Bool {
        (lhs.section, lhs.row) < (rhs.section, rhs.row)
    }

    /// `[section, row]`, as in `[0, 3]`.
    ///
    /// ```swift
    /// "\(IndexPath(row: 3, section: 0))"   // "[0, 3]"
    /// ```
    public var description: String { "[\(section), \(row)]" }
}
