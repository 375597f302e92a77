import FolioResults
import FolioTestSupport
import Testing

/// Record-then-compare: one scenario per point of the change-report contract.
@Suite struct EngineContractTests {
    typealias Engine = ResultsEngine<Int, Int, String>
    typealias Change = ResultsRowChange<Int, Int, String>

    /// Rows as (id, key, section); returns the engine loaded with them.
    func engine(_ rows: [(Int, Int, String)], fixed: String? = nil) -> Engine {
        let engine = Engine(fixedSection: fixed)
        engine.load(rows.map { ResultsRow(id: $0.0, key: $0.1, section: $0.2) })
        engine.checkInvariants()
        return engine
    }

    func set(_ id: Int, _ key: Int, _ section: String, changed: Bool = true) -> Change {
        Change(id: id, row: ResultsRow(id: id, key: key, section: section), objectChanged: changed)
    }

    func gone(_ id: Int) -> Change { Change(id: id, row: nil, objectChanged: true) }

    /// Applies, checks the report against UIKit's rules, and returns it as text.
    func record(_ engine: Engine, _ changes: [Change]) throws -> [String] {
        let old = engine.snapshot()
        let report = engine.apply(changes)
        engine.checkInvariants()
        let new = engine.snapshot()
        let applied = try ResultsBatchApplier.apply(report, to: old, dataSource: new)
        #expect(applied.map(\.ids) == new.map(\.ids))
        return report.sectionChanges.map(\.description) + report.objectChanges.map(\.description)
    }

    @Test func deletesUseOldPathsAndInsertsNewPaths() throws {
        let e = engine([(1, 10, "A"), (2, 20, "A"), (3, 30, "A")])
        #expect(try record(e, [gone(1), set(4, 25, "A")]) == ["delete 1 [0, 0]", "insert 4 [0, 1]"])
    }

    @Test func shiftsCausedByOthersAreNotMoves() throws {
        let e = engine([(1, 10, "A"), (2, 20, "A"), (3, 30, "A")])
        #expect(try record(e, [gone(1), set(3, 30, "A")]) == ["delete 1 [0, 0]", "update 3 [0, 2] -> [0, 1]"])
    }

    @Test func aKeyChangeThatKeepsThePlaceIsAnUpdate() throws {
        let e = engine([(1, 10, "A"), (2, 20, "A"), (3, 30, "A")])
        #expect(try record(e, [set(2, 21, "A")]) == ["update 2 [0, 1] -> [0, 1]"])
    }

    @Test func aKeyChangeThatPassesAnotherRowIsAMove() throws {
        let e = engine([(1, 10, "A"), (2, 20, "A"), (3, 30, "A")])
        #expect(try record(e, [set(1, 35, "A")]) == ["move 1 [0, 0] -> [0, 2]"])
    }

    @Test func twoChangedRowsSwappingInOneGapMoveOnlyOne() throws {
        let e = engine([(1, 10, "A"), (2, 20, "A"), (3, 30, "A"), (4, 40, "A")])
        let report = try record(e, [set(2, 26, "A"), set(3, 24, "A")])
        #expect(report == ["move 2 [0, 1] -> [0, 2]", "update 3 [0, 2] -> [0, 1]"])
    }

    @Test func sectionChangesComeFirstAndEmptiedSectionsAreDeleted() throws {
        let e = engine([(1, 10, "A"), (2, 20, "B"), (3, 30, "B")])
        #expect(
            try record(e, [set(1, 15, "B"), set(5, 50, "C")]) == [
                "delete section 0 (A)", "insert section 1 (C)",
                "delete 1 [0, 0]", "insert 1 [0, 0]", "insert 5 [1, 0]",
            ])
    }

    @Test func aMoveBetweenLivingSectionsIsAMove() throws {
        let e = engine([(1, 10, "A"), (2, 20, "A"), (3, 30, "B")])
        #expect(try record(e, [set(2, 35, "B")]) == ["move 2 [0, 1] -> [1, 1]"])
    }

    @Test func aMoveIntoAnInsertedSectionIsDeleteAndInsert() throws {
        let e = engine([(1, 10, "A"), (2, 20, "A")])
        #expect(try record(e, [set(2, 20, "B")]) == ["insert section 1 (B)", "delete 2 [0, 1]", "insert 2 [1, 0]"])
    }

    @Test func aMoveWhoseOldAndNewPathsAreEqualIsDeleteAndInsert() throws {
        // 1 leaves, 2 jumps past 3 and lands on its own old path.
        let e = engine([(1, 10, "A"), (2, 20, "A"), (3, 30, "A")])
        #expect(try record(e, [gone(1), set(2, 40, "A")]) == ["delete 1 [0, 0]", "delete 2 [0, 1]", "insert 2 [0, 1]"])
    }

    @Test func aRelatedKeyChangeMovesWithoutAnUpdate() throws {
        let e = engine([(1, 10, "A"), (2, 20, "A")])
        #expect(try record(e, [set(1, 30, "A", changed: false)]) == ["move 1 [0, 0] -> [0, 1]"])
        #expect(try record(e, [set(1, 30, "A", changed: false)]).isEmpty)
    }

    @Test func anInsertThatIsAlsoChangedIsOnlyAnInsert() throws {
        let e = engine([(1, 10, "A")])
        #expect(try record(e, [set(2, 5, "A"), set(2, 15, "A")]) == ["insert 2 [0, 1]"])
    }

    @Test func unsectionedResultsKeepTheirOneSection() throws {
        let e = engine([(1, 10, "")], fixed: "")
        #expect(try record(e, [gone(1)]) == ["delete 1 [0, 0]"])
        #expect(e.numberOfSections == 1 && e.numberOfRows(inSection: 0) == 0)
        #expect(try record(e, [set(2, 1, "")]) == ["insert 2 [0, 0]"])
    }

    @Test func tiesAreBrokenByID() throws {
        let e = engine([(3, 10, "A"), (1, 10, "A"), (2, 10, "A")])
        #expect(e.ids(inSection: 0) == [1, 2, 3])
        #expect(e.indexPath(of: 2) == IndexPath(row: 1, section: 0))
    }
}
