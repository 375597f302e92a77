import FolioTable
import FolioTableTestSupport
import Testing

@MainActor
struct BatchUpdateTests {
    private func path(_ section: Int, _ row: Int) -> IndexPath { IndexPath(row: row, section: section) }

    @Test func rule_1_3_deletesOldInsertsNew() throws {
        let source = TableArrayDataSource([["a", "b", "c", "d"]])
        let table = source.makeTable()
        source.sections = [["b", "x", "d", "y"]]
        try table.performCheckedBatchUpdates {
            table.deleteRows(at: [path(0, 0), path(0, 2)])
            table.insertRows(at: [path(0, 1), path(0, 3)])
        }
        #expect(table.numberOfRows(inSection: 0) == 4)
        #expect(table.indexPathsForVisibleRows.map { table.cellForRow(at: $0)?.textLabel?.text } == ["b", "x", "d", "y"])
        table.checkInvariants()
    }

    @Test func rule_1_11_E13_messageInIOS12Wording() throws {
        let source = TableArrayDataSource([["a", "b", "c", "d", "e"]])
        let table = source.makeTable()
        do {
            try table.performCheckedBatchUpdates { table.insertRows(at: [path(0, 0)]) }
            Issue.record("an inconsistent batch was applied")
        } catch {
            #expect(error.failure.code == "E13")
            #expect(
                error.message
                    == "Invalid update: invalid number of rows in section 0.  The number of rows contained in an existing section after the update (5) must be equal to the number of rows contained in that section before the update (5), plus or minus the number of rows inserted or deleted from that section (1 inserted, 0 deleted) and plus or minus the number of rows moved into or out of that section (0 moved in, 0 moved out)."
            )
        }
        #expect(table.numberOfRows(inSection: 0) == 5)
        table.checkInvariants()
    }
}

extension BatchUpdateTests {
    private func texts(_ table: TableView) -> [String?] {
        table.indexPathsForVisibleRows.map { table.cellForRow(at: $0)?.textLabel?.text }
    }

    @Test func rule_1_1_nestedBatchesApplyOnceAtTheOutermostEnd() throws {
        let source = TableArrayDataSource([["a", "b"]])
        let table = source.makeTable()
        source.sections = [["b", "c"]]
        var completions: [Bool] = []
        try table.performCheckedBatchUpdates(
            {
                table.deleteRows(at: [path(0, 0)])
                table.performBatchUpdates({ table.insertRows(at: [path(0, 1)]) }, completion: { completions.append($0) })
                #expect(table.numberOfRows(inSection: 0) == 2)
                #expect(table.hasUncommittedUpdates)
            }, completion: { completions.append($0) })
        #expect(texts(table) == ["b", "c"])
        #expect(completions == [true, true])  // rule 1.13
    }

    @Test func rule_1_2_callOrderDoesNotMatter() throws {
        for reversed in [false, true] {
            let source = TableArrayDataSource([["a", "b", "c"]])
            let table = source.makeTable()
            source.sections = [["x", "c", "b"]]
            try table.performCheckedBatchUpdates {
                let calls: [() -> Void] = [
                    { table.deleteRows(at: [self.path(0, 0)]) },
                    { table.moveRow(at: self.path(0, 1), to: self.path(0, 2)) },
                    { table.insertRows(at: [self.path(0, 0)]) },
                ]
                for call in reversed ? calls.reversed() : calls { call() }
            }
            #expect(texts(table) == ["x", "c", "b"])
        }
    }

    @Test func rule_1_5_reloadIsDeleteAndInsertAtTheShiftedPath() throws {
        let source = TableArrayDataSource([["a", "b", "c"]])
        let table = source.makeTable()
        try table.selectRow(at: path(0, 2))
        let oldCell = table.cellForRow(at: path(0, 2))
        source.sections = [["new", "b", "c*"]]
        try table.performCheckedBatchUpdates {
            table.reloadRows(at: [path(0, 2)])
            table.deleteRows(at: [path(0, 0)])
            table.insertRows(at: [path(0, 0)])
        }
        #expect(texts(table) == ["new", "b", "c*"])
        #expect(table.cellForRow(at: path(0, 2)) !== oldCell || oldCell?.reuseCount == 1)
        #expect(table.indexPathsForSelectedRows == nil)  // rule 1.5a
    }

    @Test func rule_1_6_rowChangesInsideDeletedOrInsertedSectionsAreDropped() throws {
        let source = TableArrayDataSource([["a", "b"], ["c"]])
        let table = source.makeTable()
        source.sections = [["c"], ["x", "y"]]
        try table.performCheckedBatchUpdates {
            table.deleteSections([0])
            table.deleteRows(at: [path(0, 1), path(0, 1)])
            table.insertSections([1])
            table.insertRows(at: [path(1, 0)])
        }
        #expect(texts(table) == ["c", "x", "y"])
    }

    @Test func rule_1_6_duplicateDeletesAndInsertsCollapse() throws {
        let source = TableArrayDataSource([["a", "b"]])
        let table = source.makeTable()
        source.sections = [["b", "z"]]
        try table.performCheckedBatchUpdates {
            table.deleteRows(at: [path(0, 0), path(0, 0)])
            table.insertRows(at: [path(0, 1), path(0, 1)])
        }
        #expect(texts(table) == ["b", "z"])
    }

    @Test func rule_1_7_sectionMoveCarriesItsRows() throws {
        let source = TableArrayDataSource([["a", "b"], ["c"], ["d"]])
        let table = source.makeTable()
        try table.selectRow(at: path(0, 1))
        source.sections = [["c"], ["d"], ["a", "b"]]
        try table.performCheckedBatchUpdates { table.moveSection(0, toSection: 2) }
        #expect(texts(table) == ["c", "d", "a", "b"])
        #expect(table.indexPathsForSelectedRows == [path(2, 1)])  // rule 5.7
    }

    @Test func rule_1_8_moveWithinAMovedSectionChangesNoCounts() throws {
        let source = TableArrayDataSource([["a", "b"], ["c"]])
        let table = source.makeTable()
        source.sections = [["c"], ["b", "a"]]
        try table.performCheckedBatchUpdates {
            table.moveSection(0, toSection: 1)
            table.moveRow(at: path(0, 0), to: path(1, 1))
        }
        #expect(texts(table) == ["c", "b", "a"])
    }

    @Test func rule_1_9_moveOutOfDeletedSectionIsDeletePlusInsert() throws {
        let source = TableArrayDataSource([["a", "b"], ["c"]])
        let table = source.makeTable()
        try table.selectRow(at: path(0, 1))
        source.sections = [["b", "c"]]
        try table.performCheckedBatchUpdates {
            table.deleteSections([0])
            table.moveRow(at: path(0, 1), to: path(0, 0))
        }
        #expect(texts(table) == ["b", "c"])
        #expect(table.indexPathsForSelectedRows == nil)  // a new row, not the old one moved
        table.checkInvariants()
    }

    @Test func rule_1_9_moveIntoInsertedSectionIsDeletePlusInsert() throws {
        let source = TableArrayDataSource([["a", "b"]])
        let table = source.makeTable()
        source.sections = [["b"], ["a"]]
        try table.performCheckedBatchUpdates {
            table.insertSections([1])
            table.moveRow(at: path(0, 0), to: path(1, 0))
        }
        #expect(texts(table) == ["b", "a"])
    }

    @Test func rule_1_10_sectionInvariant() throws {
        let source = TableArrayDataSource([["a"], ["b"]])
        let table = source.makeTable()
        source.sections = [["b"], [], ["n"]]
        try table.performCheckedBatchUpdates {
            table.deleteSections([0])
            table.insertSections([1, 2])
        }
        #expect(table.numberOfSections == 3)
    }

    @Test func rule_1_12_beforeCountsAreCachedSoUnannouncedChangesFail() throws {
        let source = TableArrayDataSource([["a"]])
        let table = source.makeTable()
        source.sections = [["a", "b"]]  // not announced
        source.sections = [["a", "b", "c"]]
        #expect(throws: TableUpdateError.self) { try table.performCheckedBatchUpdates { table.insertRows(at: [self.path(0, 2)]) } }
        let fresh = TableView()
        fresh.dataSource = source
        try fresh.performCheckedBatchUpdates { fresh.insertRows(at: [path(0, 2)]) }  // never loaded: it simply loads
        #expect(fresh.numberOfRows(inSection: 0) == 3)
    }

    @Test func rule_1_14_reloadDataInsideABatchDiscardsPendingChanges() throws {
        let source = TableArrayDataSource([["a"]])
        let table = source.makeTable()
        source.sections = [["a", "b"]]
        try table.performCheckedBatchUpdates {
            table.deleteRows(at: [path(0, 0)])
            table.reloadData()
            #expect(!table.hasUncommittedUpdates)
        }
        #expect(texts(table) == ["a", "b"])
    }

    @Test func rule_1_4_deletesThenMovesThenInsertsInOneBatch() throws {
        let source = TableArrayDataSource([["a", "b", "c", "d", "e"]])
        let table = source.makeTable()
        source.sections = [["e", "x", "b", "d", "y"]]
        try table.performCheckedBatchUpdates {
            table.insertRows(at: [path(0, 4), path(0, 1)])
            table.moveRow(at: path(0, 4), to: path(0, 0))
            table.deleteRows(at: [path(0, 2), path(0, 0)])
        }
        #expect(texts(table) == ["e", "x", "b", "d", "y"])
    }
}

extension BatchUpdateTests {
    /// UIKit's names trap on an invalid update, with UIKit's message, as UIKit raises.
    @Test func uikitNamedUpdatesTrapWithUIKitsMessage() async throws {
        let result = try #require(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                await MainActor.run {
                    let source = TableArrayDataSource([["a", "b"]])
                    let table = source.makeTable()
                    table.beginUpdates()
                    table.insertRows(at: [IndexPath(row: 0, section: 0)], with: .fade)
                    table.endUpdates()
                }
            })
        let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(stderr.contains("Invalid update: invalid number of rows in section 0."))
    }

    @Test func aSingleUIKitNamedUpdateOutsideABatchTrapsToo() async {
        await #expect(processExitsWith: .failure) {
            await MainActor.run {
                let source = TableArrayDataSource([["a"]])
                source.makeTable().deleteSections([3], with: .automatic)
            }
        }
    }
}

/// A data source that notes every question about a section it no longer has.
@MainActor
private final class StrictSections: TableViewDataSource {
    var sections: [(title: String, rows: [String])]
    var staleQuestions: [Int] = []
    init(_ sections: [(title: String, rows: [String])]) { self.sections = sections }

    func numberOfSections(in tableView: TableView) -> Int { sections.count }
    func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int { sections[section].rows.count }
    func tableView(_ tableView: TableView, titleForHeaderInSection section: Int) -> String? {
        guard section < sections.count else { staleQuestions.append(section); return nil }
        return sections[section].title
    }
    func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell {
        let cell = tableView.dequeueReusableCell(withIdentifier: "Cell", for: indexPath)
        cell.textLabel?.text = sections[indexPath.section].rows[indexPath.row]
        return cell
    }
}

extension BatchUpdateTests {
    /// The model is already in its new state when a batch is applied, so the
    /// table must not ask about the old layout (a tutorial's data source
    /// indexes its sections array and traps). Failed before: the highlight's
    /// visibility and the top anchor walked the old layout through the data source.
    @Test func aBatchNeverAsksTheDataSourceAboutTheOldLayout() throws {
        for highlighted in [IndexPath(row: 0, section: 2), IndexPath(row: 0, section: 0)] {
            let source = StrictSections([("A", ["a"]), ("B", ["b"]), ("C", ["c"])])
            let table = TableView(viewportHeight: 20)
            table.register(TableViewCell.self, forCellReuseIdentifier: "Cell")
            table.dataSource = source
            table.reloadData()
            table.highlightRow(at: highlighted)
            table.layoutIfNeeded()
            source.sections.removeLast()
            try table.performCheckedBatchUpdates { table.deleteSections([2]) }
            table.layoutIfNeeded()
            #expect(source.staleQuestions.isEmpty, "asked about sections \(source.staleQuestions)")
            #expect(table.numberOfSections == 2)
        }
    }
}
