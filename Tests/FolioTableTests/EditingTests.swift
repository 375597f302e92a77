import FolioTable
import FolioTableTestSupport
import Testing

/// docs/table-view-rules.md §3: edit mode, editing styles, commit.
@MainActor
struct EditingTests {
    private func p(_ section: Int, _ row: Int) -> IndexPath { IndexPath(row: row, section: section) }

    @Test func rule_3_1_setEditingReachesEveryVisibleCell() {
        let source = TableArrayDataSource([["a", "b"]])
        let table = source.makeTable()
        #expect(!table.isEditing)
        table.setEditing(true, animated: true)
        #expect(table.visibleCellsInOrder.allSatisfy { $0.isEditing })
        table.setEditing(false)
        #expect(table.visibleCellsInOrder.allSatisfy { !$0.isEditing && $0.editingStyle == .none })
    }

    @Test func rule_3_2_canEditThenStyle() {
        let source = TableArrayDataSource([["a", "b", "c"]])
        source.uneditable = [p(0, 1)]
        let table = source.makeTable()
        let delegate = TableRecordingDelegate()
        delegate.editingStyles = [p(0, 2): .insert]
        table.delegate = delegate
        table.setEditing(true)
        #expect(table.visibleCellsInOrder.map(\.editingStyle) == [.delete, .none, .insert])
        #expect(!delegate.events.contains("editingStyle [0, 1]"))  // a non-editable row is not asked
    }

    @Test func rule_3_3_cellEditingStyleDefaultsToNone() {
        #expect(TableViewCell(style: .default, reuseIdentifier: nil).editingStyle == .none)
        #expect(TableViewCell.EditingStyle.allCases.map(\.rawValue) == [0, 1, 2])
    }

    @Test func rule_3_4_insertCommitsAtOnceDeleteNeedsConfirmation() {
        let source = TableArrayDataSource([["a", "b"]])
        let table = source.makeTable()
        let delegate = TableRecordingDelegate()
        delegate.editingStyles = [p(0, 0): .insert]
        table.delegate = delegate
        table.setEditing(true)
        #expect(table.userDidTapEditingControl(forRowAt: p(0, 0)) == .insert)
        #expect(source.log == ["commit insert [0, 0]"])
        #expect(source.sections == [["new", "a", "b"]])
        #expect(table.userDidTapEditingControl(forRowAt: p(0, 2)) == .delete)
        #expect(source.log.count == 1)
        #expect(table.cellForRow(at: p(0, 2))?.showingDeleteConfirmation == true)
        table.userDidConfirmDeletion()
        #expect(source.log.last == "commit delete [0, 2]")
        #expect(table.numberOfRows(inSection: 0) == 2)
        table.checkInvariants()
    }

    @Test func rule_3_5_confirmationTitleDefaultsToDelete() {
        let source = TableArrayDataSource([["a"]])
        let table = source.makeTable()
        #expect(table.deleteConfirmationTitle(forRowAt: p(0, 0)) == "Delete")
        let delegate = TableRecordingDelegate()
        delegate.deleteTitle = "Remove"
        table.delegate = delegate
        #expect(table.deleteConfirmationTitle(forRowAt: p(0, 0)) == "Remove")
    }

    @Test func rule_3_6_multipleSelectionDuringEditingAsksNoStyles() {
        let source = TableArrayDataSource([["a", "b"]])
        let table = source.makeTable()
        let delegate = TableRecordingDelegate()
        table.delegate = delegate
        table.allowsMultipleSelectionDuringEditing = true
        table.setEditing(true)
        #expect(table.visibleCellsInOrder.allSatisfy { $0.editingStyle == .none })
        #expect(!delegate.events.contains { $0.hasPrefix("editingStyle") })
    }
}
