import FolioTable

/// A loaded table over a `TableArrayDataSource` with a
/// `TableRecordingDelegate`, all held here (the table holds its data source
/// and delegate weakly).
///
/// ```swift
/// let fixture = TableFixture([["a", "b"]])
/// fixture.table.userDidTapRow(at: IndexPath(row: 1, section: 0))
/// #expect(fixture.delegate.events.last == "didSelect [0, 1]")
/// ```
@MainActor
public final class TableFixture {
    /// The model.
    public let source: TableArrayDataSource
    /// The recorder.
    public let delegate = TableRecordingDelegate()
    /// The table, loaded.
    public let table: TableView

    /// Creates the three, wired together.
    public init(_ sections: [[String]], viewportHeight: Int = 24) {
        source = TableArrayDataSource(sections)
        table = source.makeTable(viewportHeight: viewportHeight)
        table.delegate = delegate
    }

    /// The texts of the visible cells, top to bottom.
    public var texts: [String?] {
        table.indexPathsForVisibleRows.map { table.cellForRow(at: $0)?.textLabel?.text }
    }
}
