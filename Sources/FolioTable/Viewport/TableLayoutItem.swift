/// One visible piece of a table, positioned in the viewport: a section
/// header, a row or a section footer.
///
/// ```swift
/// for item in table.layoutItems() {
///     switch item.kind {
///     case .header(let section): drawHeader(item.title, at: item.y)
///     case .row(let path): drawCell(table.cellForRow(at: path)!, at: item.y, lines: item.height)
///     case .footer: drawFooter(item.title, at: item.y)
///     }
/// }
/// ```
package struct TableLayoutItem: Hashable, Sendable {
    /// What the item shows; ordered as the table lays them out.
    ///
    /// ```swift
    /// if case .row(let path) = item.kind { draw(table.cellForRow(at: path)) }
    /// ```
    package enum Kind: Hashable, Comparable, Sendable {
        /// A section's header.
        case header(section: Int)
        /// A row.
        case row(IndexPath)
        /// A section's footer.
        case footer(section: Int)

        /// The section the item belongs to.
        ///
        /// ```swift
        /// item.kind.section
        /// ```
        package var section: Int {
            switch self {
            case .header(let section), .footer(let section): section
            case .row(let path): path.section
            }
        }

        private var sortKey: (Int, Int, Int) {
            switch self {
            case .header(let section): (section, 0, 0)
            case .row(let path): (path.section, 1, path.row)
            case .footer(let section): (section, 2, 0)
            }
        }

        /// Header before rows before footer, section by section.
        ///
        /// ```swift
        /// TableLayoutItem.Kind.header(section: 1) < .row(IndexPath(row: 0, section: 1))   // true
        /// ```
        package static func < (lhs: Kind, rhs: Kind) -> Bool { lhs.sortKey < rhs.sortKey }
    }

    /// What the item shows.
    ///
    /// ```swift
    /// item.kind
    /// ```
    package let kind: Kind
    /// The viewport line where it starts (0 is the top line).
    ///
    /// ```swift
    /// screen.move(toLine: top + item.y)
    /// ```
    package let y: Int
    /// Its height in lines; the last item may reach past the viewport.
    ///
    /// ```swift
    /// for line in 0..<item.height { print(line) }
    /// ```
    package let height: Int
    /// The header or footer title; nil for rows.
    ///
    /// ```swift
    /// print(item.title ?? "")
    /// ```
    package let title: String?

    /// Creates an item: `TableLayoutItem(kind: .header(section: 0), y: 0, height: 1, title: "Mammals")`.
    package init(kind: Kind, y: Int, height: Int, title: String?) {
        self.kind = kind
        self.y = y
        self.height = height
        self.title = title
    }
}
