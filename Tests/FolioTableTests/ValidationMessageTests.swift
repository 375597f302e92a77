import FolioTable
import FolioTableTestSupport
import Testing

/// docs/table-view-rules.md §2: each refusal, its exact text, and the order of the checks.
@MainActor
struct ValidationMessageTests {
    private func p(_ section: Int, _ row: Int) -> IndexPath { IndexPath(row: row, section: section) }

    /// Applies `batch` to a table of `before` counts whose source then reports `after`.
    private func refusal(
        _ before: [Int], _ after: [Int], dialect: UpdateMessageDialect = .iOS12, _ build: (inout TableBatch) -> Void
    ) -> TableUpdateError? {
        let source = TableCountsDataSource(before)
        let table = source.makeTable()
        table.messageDialect = dialect
        source.counts = after
        var batch = TableBatch()
        build(&batch)
        do {
            try table.apply(batch)
            return nil
        } catch {
            #expect((0..<table.numberOfSections).map { table.numberOfRows(inSection: $0) } == before)
            return error
        }
    }

    @Test func E1_deleteAndReloadSamePath() {
        let error = refusal([3], [2]) {
            $0.deletedRows = [p(0, 1)]; $0.reloadedRows = [p(0, 1)]
        }
        #expect(error?.message == "attempt to delete and reload the same index path ([0, 1])")
    }

    @Test func E2_deleteSectionOutOfRange() {
        let error = refusal([1, 1], [1]) { $0.deletedSections = [2] }
        #expect(error?.message == "attempt to delete section 2, but there are only 2 sections before the update")
    }

    @Test func E3_deleteRowInMissingSection() {
        let error = refusal([2], [1]) { $0.deletedRows = [p(1, 0)] }
        #expect(error?.message == "attempt to delete row 0 from section 1, but there are only 1 sections before the update")
    }

    @Test func E4_deleteRowPastSectionEnd() {
        let error = refusal([2], [1]) { $0.deletedRows = [p(0, 2)] }
        #expect(error?.message == "attempt to delete row 2 from section 0 which only contains 2 rows before the update")
    }

    @Test func E5_deleteAtMoveSource() {
        let rows = refusal([3], [2]) {
            $0.deletedRows = [p(0, 0)]; $0.movedRows = [.init(from: p(0, 0), to: p(0, 1))]
        }
        #expect(rows?.message == "attempt to perform a delete and a move from the same index path ([0, 0])")
        let sections = refusal([1, 1], [1]) {
            $0.deletedSections = [0]; $0.movedSections = [.init(from: 0, to: 0)]
        }
        #expect(sections?.message == "attempt to perform a delete and a move from the same section (0)")
    }

    @Test func rule_1_5c_reloadAtMoveSourceIsE5() {
        let error = refusal([3], [3]) {
            $0.reloadedRows = [p(0, 0)]; $0.movedRows = [.init(from: p(0, 0), to: p(0, 2))]
        }
        #expect(error?.failure == .deleteAndMoveRow(p(0, 0)))
    }

    @Test func E6_insertSectionOutOfRange() {
        let error = refusal([1], [1, 1]) { $0.insertedSections = [2] }
        #expect(error?.message == "attempt to insert section 2 but there are only 2 sections after the update")
    }

    @Test func E7_insertRowInMissingSection() {
        let error = refusal([1], [2]) { $0.insertedRows = [p(1, 0)] }
        #expect(error?.message == "attempt to insert row 0 into section 1, but there are only 1 sections after the update")
    }

    @Test func E8_insertRowPastSectionEnd() {
        let error = refusal([1], [2]) { $0.insertedRows = [p(0, 2)] }
        #expect(error?.message == "attempt to insert row 2 into section 0, but there are only 2 rows in section 0 after the update")
    }

    @Test func E9_insertAtMoveDestination() {
        let rows = refusal([2], [3]) {
            $0.insertedRows = [p(0, 1)]; $0.movedRows = [.init(from: p(0, 0), to: p(0, 1))]
        }
        #expect(rows?.message == "attempt to perform an insert and a move to the same index path ([0, 1])")
        let sections = refusal([1], [1, 1]) {
            $0.insertedSections = [0]; $0.movedSections = [.init(from: 0, to: 0)]
        }
        #expect(sections?.message == "attempt to perform an insert and a move to the same section (0)")
    }

    @Test func E10_moveOutOfRange() {
        #expect(
            refusal([1], [1]) { $0.movedSections = [.init(from: 1, to: 0)] }?.message
                == "attempt to move section 1, but there are only 1 sections before the update")
        #expect(
            refusal([1], [1]) { $0.movedSections = [.init(from: 0, to: 3)] }?.message
                == "attempt to to move section 0 to section 3, but there are only 1 sections after the update")
        #expect(
            refusal([1], [1]) { $0.movedRows = [.init(from: p(2, 0), to: p(0, 0))] }?.message
                == "attempt to move index path ([2, 0]) from a section that does not exist - there are only 1 sections before the update")
        #expect(
            refusal([1], [1]) { $0.movedRows = [.init(from: p(0, 4), to: p(0, 0))] }?.message
                == "attempt to move index path ([0, 4]) that does not exist - there are only 1 rows in section 0 before the update")
        #expect(
            refusal([1], [1]) { $0.movedRows = [.init(from: p(0, 0), to: p(5, 0))] }?.message
                == "attempt to move index path ([0, 0]) to index path ([5, 0]) in section that does not exist - there are only 1 sections after the update"
        )
        #expect(
            refusal([1], [1]) { $0.movedRows = [.init(from: p(0, 0), to: p(0, 1))] }?.message
                == "attempt to move index path ([0, 0]) to index path ([0, 1]) that does not exist - there are only 1 rows in section 0 after the update"
        )
    }

    @Test func E11_conflictingMoves() {
        #expect(
            refusal([1, 1, 1], [1, 1, 1]) { $0.movedSections = [.init(from: 0, to: 1), .init(from: 0, to: 2)] }?.message
                == "attempt to move section 0 to both section 1 and section 2")
        #expect(
            refusal([3], [3]) { $0.movedRows = [.init(from: p(0, 0), to: p(0, 1)), .init(from: p(0, 0), to: p(0, 2))] }?.message
                == "attempt to move row at index path [0, 0] to both [0, 1] and [0, 2]")
        #expect(
            refusal([1, 1, 1], [1, 1, 1]) { $0.movedSections = [.init(from: 0, to: 2), .init(from: 1, to: 2)] }?.message
                == "attempt to move both section 0 and section 1 to section 2")
        #expect(
            refusal([3], [3]) { $0.movedRows = [.init(from: p(0, 0), to: p(0, 2)), .init(from: p(0, 1), to: p(0, 2))] }?.message
                == "attempt to move both row at index path [0, 0] and [0, 1] to [0, 2]")
    }

    @Test func E11_identicalDuplicateMovesAreDropped() {
        let move = TableBatch.RowMove(from: p(0, 0), to: p(0, 2))
        #expect(refusal([3], [3]) { $0.movedRows = [move, move] } == nil)
    }

    @Test func E12_sectionCount() {
        let error = refusal([1], [1, 1]) { _ in }
        #expect(
            error?.message
                == "Invalid update: invalid number of sections.  The number of sections contained in the table view after the update (2) must be equal to the number of sections contained in the table view before the update (1), plus or minus the number of sections inserted or deleted (0 inserted, 0 deleted)."
        )
    }

    @Test func E13_rowCountWithMoves() {
        let error = refusal([2, 2], [2, 2]) { $0.movedRows = [.init(from: p(0, 0), to: p(1, 0))] }
        #expect(error?.failure == .invalidRowCount(section: 0, after: 2, before: 2, inserted: 0, deleted: 0, movedIn: 0, movedOut: 1))
        #expect(
            error?.message.hasSuffix(
                "(0 inserted, 0 deleted) and plus or minus the number of rows moved into or out of that section (0 moved in, 1 moved out).")
                == true)
    }

    @Test func E14_negativeRowCount() {
        let error = refusal([1], [-1]) { _ in }
        #expect(
            error?.message == "Invalid update: invalid number of rows in section 0.  Attempt to delete more rows than exist in section.")
    }

    @Test func order_reloadClashBeforeBounds() {
        let error = refusal([1], [1]) {
            $0.deletedSections = [9]; $0.deletedRows = [p(0, 0)]; $0.reloadedRows = [p(0, 0)]
        }
        #expect(error?.failure.code == "E1")
    }

    @Test func order_deletesBeforeInsertsBeforeMovesBeforeCounts() {
        let all = refusal([1], [1]) {
            $0.deletedRows = [p(0, 5)]
            $0.insertedRows = [p(0, 5)]
            $0.movedSections = [.init(from: 7, to: 0)]
            $0.insertedSections = [4]
        }
        #expect(all?.failure.code == "E4")
        let noDeletes = refusal([1], [1]) {
            $0.insertedRows = [p(0, 5)]; $0.movedSections = [.init(from: 7, to: 0)]
        }
        #expect(noDeletes?.failure.code == "E8")
        let movesThenCounts = refusal([1], [1, 1]) { $0.movedSections = [.init(from: 7, to: 0)] }
        #expect(movesThenCounts?.failure.code == "E10")
        let sectionsBeforeRows = refusal([1], [1, 2]) { $0.insertedRows = [p(0, 0)] }
        #expect(sectionsBeforeRows?.failure.code == "E12")
    }

    @Test func dialects_spacingSuffixAndModernText() {
        let build: (inout TableBatch) -> Void = { $0.insertedRows = [IndexPath(row: 0, section: 0)] }
        let iOS13 = refusal([5], [5], dialect: .iOS13, build)
        #expect(iOS13?.message.hasPrefix("Invalid update: invalid number of rows in section 0. The number") == true)
        let iOS14 = refusal([5], [5], dialect: .iOS14, build)
        #expect(iOS14?.message.hasSuffix(" Table view: <TableView: sections = 1; dataSource: <TableCountsDataSource>>") == true)
        let iOS16 = refusal([30], [30], dialect: .iOS16) {
            $0.deletedRows = [IndexPath(row: 0, section: 0)]
            $0.insertedRows = [IndexPath(row: 0, section: 0), IndexPath(row: 1, section: 0)]
        }
        #expect(
            iOS16?.message == """
                Invalid batch updates detected: the number of sections and/or rows returned by the data source before and after performing the batch updates are inconsistent with the updates.
                Data source before updates = { 1 section with row counts: [30] }
                Data source after updates = { 1 section with row counts: [30] }
                Updates = [ Delete row (0 - 0), Insert row (0 - 0), Insert row (0 - 1) ]
                Table view: <TableView: sections = 1; dataSource: <TableCountsDataSource>>
                """)
        let sections13 = refusal([1], [1, 1], dialect: .iOS13) { _ in }
        #expect(sections13?.message.hasPrefix("Invalid update: invalid number of sections. The number") == true)
    }
}
