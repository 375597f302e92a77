import FolioTable
import FolioTableTestSupport
import Testing

/// docs/table-view-rules.md §7 and §8: headers, footers, index, the viewport.
@MainActor
struct ViewportTests {
    private func p(_ section: Int, _ row: Int) -> IndexPath { IndexPath(row: row, section: section) }

    private func kinds(_ table: TableView) -> [TableLayoutItem.Kind] { table.layoutItems().map(\.kind) }

    @Test func rule_7_1_titledHeadersAndFootersTakeLinesUntitledNone() {
        let source = TableArrayDataSource([["a"], ["b"]])
        source.headers = ["Mammals", nil]
        source.footers = [nil, "End"]
        let table = source.makeTable()
        #expect(
            table.layoutItems() == [
                TableLayoutItem(kind: .header(section: 0), y: 0, height: 1, title: "Mammals"),
                TableLayoutItem(kind: .row(p(0, 0)), y: 1, height: 1, title: nil),
                TableLayoutItem(kind: .row(p(1, 0)), y: 2, height: 1, title: nil),
                TableLayoutItem(kind: .footer(section: 1), y: 3, height: 1, title: "End"),
            ])
    }

    @Test func rule_7_2_to_7_4_sectionIndex() {
        let source = TableArrayDataSource([["a"], ["b"], ["c"]])
        let table = source.makeTable(viewportHeight: 1)
        #expect(table.sectionIndexTitles == nil)
        source.indexTitles = [TableView.indexSearch, "A", "B", "C"]
        #expect(table.section(forSectionIndexTitleAt: 2) == 2)
        #expect(table.section(forSectionIndexTitleAt: 4) == nil)
        #expect(table.userDidTapSectionIndexTitle(at: 1) == 1)
        #expect(table.indexPathsForVisibleRows == [p(1, 0)])
    }

    @Test func rule_8_1_reloadKeepsTheTopClampedWhenContentShrinks() {
        let source = TableCountsDataSource([50])
        let table = source.makeTable(viewportHeight: 10)
        table.scroll(byLines: 20)
        #expect(table.topVisibleItem == .row(p(0, 20)))
        table.reloadData()
        #expect(table.topVisibleItem == .row(p(0, 20)))
        source.counts = [25]
        table.reloadData()
        #expect(table.topVisibleItem == .row(p(0, 15)))
        #expect(table.indexPathsForVisibleRows.last == p(0, 24))
    }

    @Test func rule_8_2_withoutTheAnchorInsertsAboveSlideTheContent() throws {
        let source = TableCountsDataSource([100])
        let table = source.makeTable(viewportHeight: 10)
        table.anchorsTopRowAcrossUpdates = false
        table.scroll(byLines: 50)
        source.counts = [103]
        try table.performCheckedBatchUpdates { table.insertRows(at: [p(0, 0), p(0, 1), p(0, 2)]) }
        #expect(table.topVisibleItem == .row(p(0, 50)))
    }

    @Test func rule_8_4_anchorKeepsTheTopRowAcrossUpdatesAboveIt() throws {
        let source = TableCountsDataSource([100])
        let table = source.makeTable(viewportHeight: 10)
        table.highlightRow(at: nil)
        table.scroll(byLines: 50)
        let top = table.cellForRow(at: p(0, 50))
        source.counts = [101]
        try table.performCheckedBatchUpdates {
            table.insertRows(at: [p(0, 0), p(0, 1), p(0, 2)])
            table.deleteRows(at: [p(0, 10), p(0, 11)])
        }
        #expect(table.topVisibleItem == .row(p(0, 51)))
        #expect(table.cellForRow(at: p(0, 51)) === top)
        source.counts = [98]
        try table.performCheckedBatchUpdates { table.deleteRows(at: [p(0, 51), p(0, 52), p(0, 53)]) }  // the top row itself goes
        #expect(table.topVisibleItem == .row(p(0, 51)))
    }

    @Test func highlightedRowIsKeptVisible() throws {
        let source = TableCountsDataSource([100])
        let table = source.makeTable(viewportHeight: 5)
        table.moveHighlight(by: 7)
        #expect(table.indexPathsForVisibleRows == (3...7).map { p(0, $0) })
        table.moveHighlight(by: -6)
        #expect(table.indexPathsForVisibleRows.first == p(0, 1))
        table.moveHighlight(by: 1_000)
        #expect(table.highlightedIndexPath == p(0, 99))
        #expect(table.indexPathsForVisibleRows.last == p(0, 99))
        source.counts = [98]
        try table.performCheckedBatchUpdates { table.deleteRows(at: [p(0, 98), p(0, 99)]) }
        #expect(table.highlightedIndexPath == p(0, 97))
        #expect(table.isRowFullyVisible(p(0, 97)))
    }

    @Test func scrollPositionsAndHeights() throws {
        let source = TableArrayDataSource([(0..<30).map(String.init)])
        let table = source.makeTable(viewportHeight: 6)
        let delegate = TableRecordingDelegate()
        delegate.rowHeights = [p(0, 10): 2]
        table.delegate = delegate
        try table.scrollToRow(at: p(0, 10), at: .top)
        #expect(table.layoutItems().first == TableLayoutItem(kind: .row(p(0, 10)), y: 0, height: 2, title: nil))
        try table.scrollToRow(at: p(0, 20), at: .bottom)
        #expect(table.indexPathsForVisibleRows.last == p(0, 20))
        #expect(table.indexPathsForVisibleRows.count == 6)
        try table.scrollToRow(at: p(0, 20), at: .middle)
        #expect(table.indexPathsForVisibleRows.first == p(0, 18))
        try table.scrollToRow(at: p(0, 29), at: .top)  // clamped to the last page
        #expect(table.indexPathsForVisibleRows == (24...29).map { p(0, $0) })
        table.scroll(byLines: -1_000)
        #expect(table.topVisibleItem == .row(p(0, 0)))
    }

    @Test func emptyTableHasNoItems() {
        let source = TableArrayDataSource([[], []])
        let table = source.makeTable()
        #expect(table.layoutItems().isEmpty)
        #expect(table.highlightedIndexPath == nil)
        #expect(table.moveHighlight(by: 1) == nil)
    }
}

extension ViewportTests {
    @Test func rule_8_4_atTheVeryTopInsertedFirstRowsAreSeen() throws {
        let source = TableArrayDataSource([["b", "c", "d"]])
        source.headers = ["Planets"]
        let table = source.makeTable(viewportHeight: 3)
        #expect(table.topVisibleItem == .header(section: 0))
        source.sections = [["a", "b", "c", "d"]]
        try table.performCheckedBatchUpdates { table.insertRows(at: [p(0, 0)]) }
        #expect(table.topVisibleItem == .header(section: 0))
        #expect(table.indexPathsForVisibleRows == [p(0, 0), p(0, 1)])
        table.scroll(byLines: 2)  // not at the top any more: anchored again
        let top = table.topVisibleItem
        source.sections = [["z", "a", "b", "c", "d"]]
        try table.performCheckedBatchUpdates { table.insertRows(at: [p(0, 0)]) }
        if case .row(let path) = top {
            #expect(table.topVisibleItem == .row(IndexPath(row: path.row + 1, section: 0)))
        } else {
            Issue.record("expected a row at the top, got \(String(describing: top))")
        }
    }
}
