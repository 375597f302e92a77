import FolioStore

/// An import file's rows as read: every row's cells in one flat array, in
/// the columns' order (nil where a JSON row leaves a field out), so a
/// million rows are three arrays, not a million of them. Each
/// ``ImportRecord`` is a row of it.
///
/// ```swift
/// var table = ImportTable.Builder(names: ["id", "name"], fromCSV: false)
/// table.addRow(line: 2)
/// table.set(1, .string("Mars"))
/// let records = table.build().records   // one record, named "Mars"
/// ```
package final class ImportTable: Sendable {
    /// The columns, in the order of a row's cells.
    let names: [String]
    /// Whether the cells are CSV text.
    let fromCSV: Bool
    /// Each row's cells, one row after another.
    let cells: [JSONNode?]
    /// The line each row starts on.
    let lines: [Int]

    private init(_ builder: Builder) {
        names = builder.names
        fromCSV = builder.fromCSV
        cells = builder.cells
        lines = builder.lines
    }

    /// The column called `name`: a file has a few, compared in place.
    func column(_ name: String) -> Int? { names.firstIndex(of: name) }

    /// A record per row, in file order.
    var records: [ImportRecord] { lines.indices.map { ImportRecord(line: lines[$0], file: self, row: $0) } }

    /// Collects the rows as they are read.
    package struct Builder {
        let names: [String]
        let fromCSV: Bool
        var cells: [JSONNode?] = []
        var lines: [Int] = []
        /// Where the row being read starts in ``cells``.
        private var base = 0

        package init(names: [String], fromCSV: Bool) {
            self.names = names
            self.fromCSV = fromCSV
        }

        /// Starts a row, every cell empty.
        package mutating func addRow(line: Int) {
            base = cells.count
            lines.append(line)
            for _ in 0..<names.count { cells.append(nil) }
        }

        /// Adds a row whose every cell is text (CSV's), in the columns' order.
        package mutating func addRow(line: Int, texts: [String]) {
            base = cells.count
            lines.append(line)
            for text in texts { cells.append(.string(text)) }
        }

        /// Whether the row being read has a value in `column` already.
        package func isSet(_ column: Int) -> Bool { cells[base + column] != nil }

        /// Sets a cell of the row being read.
        package mutating func set(_ column: Int, _ value: JSONNode) { cells[base + column] = value }

        package func build() -> ImportTable { ImportTable(self) }
    }
}
