/// A rectangle of cells: column `x`, row `y`, `width` columns by `height` rows.
///
/// ```swift
/// let body = Rect(x: 0, y: 1, width: 120, height: 38)
/// body.maxY // 39
/// ```
public struct Rect: Hashable, Sendable {
    /// The leftmost column.
    public var x: Int
    /// The top row.
    public var y: Int
    /// The number of columns.
    public var width: Int
    /// The number of rows.
    public var height: Int

    /// Creates a rectangle; negative sizes become zero.
    ///
    /// ```swift
    /// let line = Rect(x: 0, y: 0, width: 80, height: 1)
    /// ```
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
    }

    /// One past the rightmost column.
    ///
    /// ```swift
    /// Rect(x: 2, y: 0, width: 3, height: 1).maxX // 5
    /// ```
    public var maxX: Int { x + width }
    /// One past the bottom row.
    ///
    /// ```swift
    /// Rect(x: 0, y: 2, width: 1, height: 3).maxY // 5
    /// ```
    public var maxY: Int { y + height }

    /// Whether the cell at column `column`, row `row` lies inside.
    ///
    /// ```swift
    /// Rect(x: 0, y: 0, width: 2, height: 2).contains(column: 1, row: 1) // true
    /// ```
    public func contains(column: Int, row: Int) -> Bool {
        column >= x && column < maxX && row >= y && row < maxY
    }

    /// The rectangle minus `top` rows above and `bottom` rows below.
    ///
    /// ```swift
    /// Rect(x: 0, y: 0, width: 80, height: 24).inset(top: 1, bottom: 1).height // 22
    /// ```
    public func inset(top: Int = 0, bottom: Int = 0, left: Int = 0, right: Int = 0) -> Rect {
        Rect(x: x + left, y: y + top, width: width - left - right, height: height - top - bottom)
    }

    /// A single row of this rectangle.
    ///
    /// ```swift
    /// Rect(x: 0, y: 3, width: 80, height: 10).row(2) // y == 5, height 1
    /// ```
    public func row(_ offset: Int) -> Rect {
        Rect(x: x, y: y + offset, width: width, height: 1)
    }
}
