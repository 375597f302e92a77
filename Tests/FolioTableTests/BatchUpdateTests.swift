import FolioTable
import FolioTestSupport
import Testing

@MainActor
struct BatchUpdateTests {
    private func path(_ section: Int, _ row: Int) -> IndexPath { IndexPath(row: row, section: section) }

    @Test func rule_1_3_deletesOldInsertsNew() throws {
        let source = TableArrayDataSource([["a", "b", "c", "d"]])
        let table = source.makeTable()
        source.sections = [["b", "x", "d", "y"]]
        try table.performBatchUpdates {
            try table.deleteRows(at: [path(0, 0), path(0, 2)])
            try table.insertRows(at: [path(0, 1), path(0, 3)])
        }
        #expect(table.numberOfRows(inSection: 0) == 4)
        #expect(table.indexPathsForVisibleRows.map { table.cellForRow(at: $0)?.textLabel.text } == ["b", "x", "d", "y"])
        table.checkInvariants()
    }

    @Test func rule_1_11_E13_messageInIOS12Wording() throws {
        let source = TableArrayDataSource([["a", "b", "c", "d", "e"]])
        let table = source.makeTable()
        do {
            try table.insertRows(at: [path(0, 0)])
            Issue.record("an inconsistent batch was applied")
        } catch {
            #expect(error.failure.code == "E13")
            #expect(error.message == "Invalid update: invalid number of rows in section 0.  The number of rows contained in an existing section after the update (5) must be equal to the number of rows contained in that section before the update (5), plus or minus the number of rows inserted or deleted from that section (1 inserted, 0 deleted) and plus or minus the number of rows moved into or out of that section (0 moved in, 0 moved out).")
        }
        #expect(table.numberOfRows(inSection: 0) == 5)
        table.checkInvariants()
    }
}
