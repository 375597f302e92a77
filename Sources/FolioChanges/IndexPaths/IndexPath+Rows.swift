/// Table and collection view positions on Foundation's `IndexPath`, as UIKit
/// adds them: a path of two indexes, the section and then the row (or item).
///
/// Paths order section first, then row, and print as `[section, row]`.
///
/// ```swift
/// let path = IndexPath(row: 3, section: 0)
/// print(path)                                   // [0, 3]
/// path < IndexPath(row: 0, section: 1)          // true
/// ```
extension IndexPath {
    /// Creates the path of a row within a section.
    ///
    /// ```swift
    /// let path = IndexPath(row: 0, section: 2)
    /// ```
    @inlinable
    public init(row: Int, section: Int) {
        // One index, then one appended: both stay inline, where an array
        // literal would allocate.
        self.init(index: section)
        append(row)
    }

    /// Creates the path of a collection-view item within a section.
    ///
    /// ```swift
    /// IndexPath(item: 4, section: 0).row   // 4
    /// ```
    @inlinable
    public init(item: Int, section: Int) {
        self.init(row: item, section: section)
    }

    /// The section: the first of the path's two indexes.
    ///
    /// ```swift
    /// IndexPath(row: 2, section: 1).section   // 1
    /// ```
    @inlinable
    public var section: Int {
        get {
            requireTwoIndexes("section")
            return self[0]
        }
        set {
            requireTwoIndexes("section")
            self[0] = newValue
        }
    }

    /// The row within the section: the second of the path's two indexes.
    ///
    /// ```swift
    /// IndexPath(row: 2, section: 1).row   // 2
    /// ```
    @inlinable
    public var row: Int {
        get {
            requireTwoIndexes("row")
            return self[1]
        }
        set {
            requireTwoIndexes("row")
            self[1] = newValue
        }
    }

    /// The row under its collection-view name.
    ///
    /// ```swift
    /// IndexPath(row: 4, section: 0).item   // 4
    /// ```
    @inlinable
    public var item: Int {
        get { row }
        set { row = newValue }
    }

    /// Stops, naming the path, when it is not a section and a row.
    @inlinable
    func requireTwoIndexes(_ property: StaticString) {
        if count != 2 { invalidTableIndexPath(property) }
    }

    @usableFromInline
    func invalidTableIndexPath(_ property: StaticString) -> Never {
        preconditionFailure(
            "IndexPath.\(property): \(self) has \(count) indexes; a table or collection view path has two, the section and the row")
    }
}
