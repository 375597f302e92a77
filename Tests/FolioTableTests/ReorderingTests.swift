import FolioTable
import FolioTableTestSupport
import Testing

/// docs/table-view-rules.md §4: reordering by hand.
@MainActor
struct ReorderingTests {
    private let fixture = TableFixture([["a", "b", "c"], ["d", "e"]])
    private var source: TableArrayDataSource { fixture.source }
    private var delegate: TableRecordingDelegate { fixture.delegate }
    private var table: TableView { fixture.table }

    private func p(_ section: Int, _ row: Int) -> IndexPath { IndexPath(row: row, section: section) }

    private var texts: [String?] { fixture.texts }

    @Test func rule_4_1_handleOnlyInEditModeForMovableRows() {
        #expect(!table.canMoveRow(at: p(0, 0)))
        source.unmovable = [p(0, 1)]
        table.setEditing(true)
        #expect(table.canMoveRow(at: p(0, 0)))
        #expect(!table.canMoveRow(at: p(0, 1)))
        #expect(table.cellForRow(at: p(0, 0))?.showsReorderControl == true)
        #expect(table.cellForRow(at: p(0, 1))?.showsReorderControl == false)
        #expect(table.userMoveRow(at: p(0, 1), by: 1) == nil)
    }

    @Test func rule_4_2_targetIsAskedWithTheOriginalSource() {
        table.setEditing(true)
        table.beginReordering(at: p(0, 0))
        table.moveReorderingRow(by: 1)
        table.moveReorderingRow(by: 1)
        #expect(
            delegate.events.filter { $0.hasPrefix("target") } == [
                "target [0, 0] proposed [0, 1]", "target [0, 0] proposed [0, 2]",
            ])
        table.cancelReordering()
        #expect(source.log.isEmpty)
    }

    @Test func rule_4_2_delegateKeepsRowsInTheirSection() {
        // BuildGuide's rule: units stay inside their own section.
        delegate.moveTarget = { source, proposed in
            if proposed.section == source.section { return proposed }
            return IndexPath(row: proposed.section < source.section ? 0 : 2, section: source.section)
        }
        table.setEditing(true)
        #expect(table.userMoveRow(at: p(0, 2), by: 1) == p(0, 2))
        #expect(source.log.isEmpty)
        #expect(table.userMoveRow(at: p(1, 0), by: -1) == p(1, 0))
    }

    @Test func rule_4_3_dropUpdatesTheTableThenTheModelOnce() {
        table.setEditing(true)
        try? table.selectRow(at: p(0, 0))
        #expect(table.userMoveRow(at: p(0, 0), by: 3) == p(1, 0))
        #expect(source.log == ["move [0, 0] -> [1, 0]"])
        #expect(source.sections == [["b", "c"], ["a", "d", "e"]])
        #expect(texts == ["b", "c", "a", "d", "e"])
        #expect(table.numberOfRows(inSection: 1) == 3)
        #expect(table.indexPathsForSelectedRows == [p(1, 0)])
        table.checkInvariants()
        #expect(table.userMoveRow(at: p(1, 0), by: -1) == p(0, 2))
        #expect(source.sections == [["b", "c", "a"], ["d", "e"]])
    }

    @Test func rule_4_4_dropWhereItStartedCallsNothing() {
        table.setEditing(true)
        table.beginReordering(at: p(0, 1))
        table.proposeReorderDestination(p(0, 1))
        #expect(table.endReordering() == p(0, 1))
        #expect(source.log.isEmpty)
    }
}

extension ReorderingTests {
    @Test func rule_4_3_rowsScrolledIntoViewAfterADropShowTheMovedModel() {
        source.sections = [(0..<20).map { "r\($0)" }]
        table.viewportHeight = 3
        table.reloadData()
        table.setEditing(true)
        table.highlightRow(at: p(0, 0))
        // Dragging the top row far down scrolls the viewport to follow it.
        table.beginReordering(at: p(0, 0))
        table.proposeReorderDestination(p(0, 10))
        #expect(table.endReordering() == p(0, 10))
        #expect(table.highlightedIndexPath == p(0, 10))
        #expect(table.indexPathsForVisibleRows.contains(p(0, 10)))
        #expect(texts == table.indexPathsForVisibleRows.map { source.sections[$0.section][$0.row] })
        table.checkInvariants()
    }
}
