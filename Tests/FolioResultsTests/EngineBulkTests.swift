import FolioResults
import FolioTestSupport
import Testing

/// Batches that move a large share of the rows at once, as renaming one
/// classification's order does to every animal sorted by it: the report
/// must stay exact whichever way each section is edited.
@Suite struct EngineBulkTests {
    /// Rows sectioned by class, sorted by (order, name); one order's rows take another order's place.
    @Test(arguments: [ResultsEngine<Int, Int, Int>.EditStrategy.automatic, .inPlace, .rebuild])
    func renamingOneOrderMovesItsRowsConsistently(strategy: ResultsEngine<Int, Int, Int>.EditStrategy) throws {
        var random = ResultsRandom.fromEnvironment()
        print("seed:", random.seed, strategy)
        let n = 20_000
        var order = (0..<n).map { _ in Int.random(in: 0..<13, using: &random) }
        let name = (0..<n).map { _ in Int.random(in: 0..<100_000, using: &random) }
        let section = (0..<n).map { _ in Int.random(in: 0..<4, using: &random) }
        func row(_ id: Int) -> ResultsRow<Int, Int, Int> { ResultsRow(id: id, key: order[id] * 100_000 + name[id], section: section[id]) }
        let engine = ResultsEngine<Int, Int, Int>()
        engine.editStrategy = strategy
        engine.load((0..<n).map(row))
        let old = engine.snapshot()

        let renamed = (0..<n).filter { order[$0] == 5 }
        for id in renamed { order[id] = 12 }
        // A related object changed, not the rows themselves.
        let report = engine.apply(renamed.map { ResultsRowChange(id: $0, row: row($0), objectChanged: false) })
        engine.checkInvariants()

        let fresh = ResultsEngine<Int, Int, Int>()
        fresh.load((0..<n).map(row))
        let new = engine.snapshot()
        #expect(new.map(\.ids) == fresh.snapshot().map(\.ids))
        let applied = try ResultsBatchApplier.apply(report, to: old, dataSource: new)
        #expect(applied.map(\.ids) == new.map(\.ids))
        #expect(report.sectionChanges.isEmpty)
        // Each renamed row once, as a move (none keeps its gap: every one passes the orders between).
        #expect(report.objectChanges.count == renamed.count)
        #expect(report.objectChanges.allSatisfy { $0.type == .move && $0.indexPath?.section == $0.newIndexPath?.section })
        #expect(Set(report.objectChanges.map(\.id)) == Set(renamed))
    }
}
