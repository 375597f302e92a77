import FolioTable
import FolioTableTestSupport
import Testing

/// docs/table-view-rules.md §5: highlight versus selection.
@MainActor
struct SelectionTests {
    private func p(_ section: Int, _ row: Int) -> IndexPath { IndexPath(row: row, section: section) }

    private let fixture = TableFixture([["a", "b", "c"]])
    private var source: TableArrayDataSource { fixture.source }
    private var delegate: TableRecordingDelegate { fixture.delegate }
    private var table: TableView { fixture.table }

    private func fixture(_ sections: [[String]]? = nil) -> (TableArrayDataSource, TableView, TableRecordingDelegate) {
        if let sections {
            source.sections = sections
            table.reloadData()
        }
        return (source, table, delegate)
    }

    @Test func rule_5_1_defaults() {
        let table = TableView()
        #expect(table.allowsSelection)
        #expect(!table.allowsSelectionDuringEditing)
        #expect(!table.allowsMultipleSelection)
        #expect(!table.allowsMultipleSelectionDuringEditing)
    }

    @Test func rule_5_2_highlightComesFirstAndNeverSelects() {
        let (_, table, delegate) = fixture()
        #expect(table.highlightedIndexPath == p(0, 0))  // a table opens with its first row highlighted
        table.moveHighlight(by: 1)
        #expect(delegate.events == ["shouldHighlight [0, 1]", "didUnhighlight [0, 0]", "didHighlight [0, 1]"])
        #expect(table.indexPathsForSelectedRows == nil)
        #expect(table.cellForRow(at: p(0, 1))?.isHighlighted == true)
        #expect(table.cellForRow(at: p(0, 0))?.isHighlighted == false)
    }

    @Test func rule_5_2_refusedHighlightIsSkippedAndPreventsSelection() {
        let (_, table, delegate) = fixture()
        delegate.unhighlightable = [p(0, 1)]
        table.moveHighlight(by: 1)
        #expect(table.highlightedIndexPath == p(0, 2))
        #expect(table.userDidTapRow(at: p(0, 1)) == nil)
        #expect(table.indexPathsForSelectedRows == nil)
    }

    @Test func rule_5_3_willSelectRedirectsOrCancelsAndSingleModeDeselectsFirst() {
        let (_, table, delegate) = fixture()
        #expect(table.userDidTapRow(at: p(0, 0)) == p(0, 0))
        delegate.events = []
        delegate.selectRedirects = [p(0, 1): p(0, 2)]
        #expect(table.userDidTapRow(at: p(0, 1)) == p(0, 2))
        #expect(
            delegate.events == [
                "shouldHighlight [0, 1]", "didUnhighlight [0, 0]", "didHighlight [0, 1]",
                "willSelect [0, 1]", "willDeselect [0, 0]", "didDeselect [0, 0]", "didSelect [0, 2]",
            ])
        #expect(table.indexPathsForSelectedRows == [p(0, 2)])
        delegate.selectRedirects = [p(0, 0): IndexPath?.none]
        #expect(table.userDidTapRow(at: p(0, 0)) == nil)
        #expect(table.indexPathsForSelectedRows == [p(0, 2)])
        table.checkInvariants()
    }

    @Test func rule_5_4_multipleSelectionTapTogglesOff() {
        let (_, table, delegate) = fixture()
        table.allowsMultipleSelection = true
        table.userDidTapRow(at: p(0, 0))
        table.userDidTapRow(at: p(0, 2))
        #expect(table.indexPathsForSelectedRows == [p(0, 0), p(0, 2)])
        delegate.events = []
        table.userDidTapRow(at: p(0, 0))
        #expect(delegate.events.suffix(2) == ["willDeselect [0, 0]", "didDeselect [0, 0]"])
        #expect(table.indexPathsForSelectedRows == [p(0, 2)])
    }

    @Test func rule_5_5_noSelectionInEditModeUnlessAllowed() {
        let (_, table, delegate) = fixture()
        table.setEditing(true)
        #expect(table.userDidTapRow(at: p(0, 1)) == nil)
        #expect(!delegate.events.contains("didSelect [0, 1]"))
        table.allowsSelectionDuringEditing = true
        #expect(table.userDidTapRow(at: p(0, 1)) == p(0, 1))
    }

    @Test func rule_5_6_programmaticSelectionCallsNoDelegate() throws {
        let (_, table, delegate) = fixture()
        try table.selectRow(at: p(0, 1), animated: false, scrollPosition: .none)
        table.deselectRow(at: p(0, 1), animated: false)
        try table.selectRow(at: p(0, 2))
        #expect(delegate.events.isEmpty)
        #expect(table.indexPathForSelectedRow == p(0, 2))
    }

    @Test func M3_selectingAMissingRowIsRefused() {
        let (_, table, _) = fixture()
        #expect(throws: TableViewError.self) { try table.selectRow(at: self.p(0, 3)) }
        do {
            try table.scrollToRow(at: p(0, 7), at: .top)
        } catch {
            #expect(
                error.description.hasPrefix(
                    "Attempted to scroll the table view to an out-of-bounds row (7) when there are only 3 rows in section 0. Table view: <TableView"
                ))
        }
    }

    @Test func rule_5_7_reloadRowsAndReloadDataClearSelection() throws {
        let (source, table, _) = fixture()
        table.allowsMultipleSelection = true
        try table.selectRow(at: p(0, 0))
        try table.selectRow(at: p(0, 2))
        try table.performCheckedBatchUpdates { table.reloadRows(at: [p(0, 0)]) }
        #expect(table.indexPathsForSelectedRows == [p(0, 2)])
        source.sections = [["a", "b"]]
        table.reloadData()
        #expect(table.indexPathsForSelectedRows == nil)
        table.checkInvariants()
    }

    @Test func rule_5_7_batchMovesSelectionsAndDropsDeletedOnes() throws {
        let (source, table, _) = fixture([["a", "b", "c", "d"]])
        table.allowsMultipleSelection = true
        for row in [0, 2, 3] { try table.selectRow(at: p(0, row)) }
        source.sections = [["n", "a", "d", "b"]]
        try table.performCheckedBatchUpdates {
            table.insertRows(at: [p(0, 0)])
            table.deleteRows(at: [p(0, 2)])
            table.moveRow(at: p(0, 3), to: p(0, 2))
        }
        #expect(table.indexPathsForSelectedRows == [p(0, 1), p(0, 2)])
        table.checkInvariants()
    }

    @Test func rule_6_8_detailButtonTapIsNotSelection() {
        let (_, table, delegate) = fixture()
        table.userDidTapAccessoryButton(forRowAt: p(0, 1))
        #expect(delegate.events == ["accessoryTapped [0, 1]"])
        #expect(table.indexPathsForSelectedRows == nil)
    }
}
