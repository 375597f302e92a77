import FolioTable

/// A data source that is only row counts, for large tables and validation
/// tests: the cell at `[s, r]` reads "s.r".
///
/// ```swift
/// let source = TableCountsDataSource([1_000_000])
/// let table = source.makeTable(viewportHeight: 40)
/// ```
@MainActor
public final class TableCountsDataSource: TableViewDataSource {
    /// Rows per section.
    public var counts: [Int]
    /// How many times `cellForRowAt` was called.
    public private(set) var cellRequests = 0

    /// Creates the source: `TableCountsDataSource([3, 0, 2])`.
    public init(_ counts: [Int]) {
        self.counts = counts
    }

    /// A table wired to this source with a "Cell" registration, loaded.
    public func makeTable(viewportHeight: Int = 24) -> TableView {
        let table = TableView(viewportHeight: viewportHeight)
        table.register(TableViewCell.self, forCellReuseIdentifier: "Cell")
        table.dataSource = self
        table.reloadData()
        return table
    }

    /// Answered from `counts` (data-source requirement).
    public func numberOfSections(in tableView: TableView) -> Int { counts.count }

    /// Answered from `counts` (data-source requirement).
    public func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int { counts[section] }

    /// Answered from `counts` (data-source requirement).
    public func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell {
        cellRequests += 1
        let cell = tableView.dequeueReusableCell(withIdentifier: "Cell", for: indexPath)
        cell.textLabel?.text = "\(indexPath.section).\(indexPath.row)"
        return cell
    }
}
