import FolioTable
import FolioTableTestSupport
import Testing

/// Random valid batches are applied and checked against the model; random
/// invalid ones are refused and leave the table unchanged.
@MainActor
struct RandomBatchTests {
    private struct Observed: Equatable {
        var counts: [Int]
        var cells: [IndexPath: String?]
        var selected: [IndexPath]
        var top: TableLayoutItem.Kind?
        var highlighted: IndexPath?
    }

    private func observe(_ table: TableView) -> Observed {
        let counts = (0..<table.numberOfSections).map { table.numberOfRows(inSection: $0) }
        var cells: [IndexPath: String?] = [:]
        for path in table.indexPathsForVisibleRows { cells[path] = table.cellForRow(at: path)?.textLabel?.text }
        return Observed(
            counts: counts, cells: cells, selected: table.indexPathsForSelectedRows ?? [],
            top: table.topVisibleItem, highlighted: table.highlightedIndexPath)
    }

    /// A copy of a valid batch broken in a way UIKit always refuses.
    private func broken(_ scenario: TableScenario, using random: inout ResultsRandom) -> TableBatch? {
        var batch = scenario.batch
        let newCounts = scenario.new.map(\.count)
        let oldCounts = scenario.old.map(\.count)
        switch Int.random(in: 0..<6, using: &random) {
        case 0:
            guard let index = batch.insertedRows.firstIndex(where: { !scenario.freshSections.contains($0.section) }) else {
                return nil
            }
            batch.insertedRows.remove(at: index)  // E13
        case 1:
            guard let index = batch.deletedRows.firstIndex(where: { !scenario.goneSections.contains($0.section) }) else {
                return nil
            }
            batch.deletedRows.remove(at: index)  // E13
        case 2:
            guard let section = newCounts.indices.randomElement(using: &random) else { return nil }
            batch.insertedRows.append(IndexPath(row: newCounts[section], section: section))  // E8
        case 3:
            guard let section = oldCounts.indices.randomElement(using: &random) else { return nil }
            batch.deletedRows.append(IndexPath(row: oldCounts[section], section: section))  // E4
        case 4:
            batch.insertedSections.append(newCounts.count)  // E6
        default:
            guard let path = batch.deletedRows.first else { return nil }
            batch.reloadedRows.append(path)  // E1
        }
        return batch
    }

    @Test func rule_1_x_randomBatchesMatchTheModel() async throws {
        var random = ResultsRandom.fromEnvironment()
        print("seed:", random.seed)
        for round in 0..<40 {
            await Task.yield()  // a turn for the other main-actor tests
            var ids = 0
            let initial = (0..<Int.random(in: 0...4, using: &random)).map { _ in
                (0..<Int.random(in: 0...6, using: &random)).map { _ -> String in
                    ids += 1; return "r\(ids)"
                }
            }
            let source = TableArrayDataSource(initial)
            let table = source.makeTable(viewportHeight: Int.random(in: 2...9, using: &random))
            table.allowsMultipleSelection = true
            for step in 0..<60 {
                let rows = source.sections.indices.flatMap { s in source.sections[s].indices.map { IndexPath(row: $0, section: s) } }
                for path in rows where Int.random(in: 0..<4, using: &random) == 0 { try table.selectRow(at: path) }
                if let path = rows.randomElement(using: &random) { try table.scrollToRow(at: path, at: .middle) }
                let scenario = TableScenario.random(from: source.sections, using: &random, nextID: &ids)
                let selectedBefore = (table.indexPathsForSelectedRows ?? []).map { source[$0] }
                let keptSelection = Set(
                    (table.indexPathsForSelectedRows ?? []).filter {
                        scenario.fates[$0] == .stay || scenario.fates[$0] == .move
                    }.map { source[$0] })
                let before = observe(table)
                source.sections = scenario.new

                if Int.random(in: 0..<3, using: &random) == 0, let bad = broken(scenario, using: &random) {
                    #expect(throws: TableUpdateError.self, "round \(round) step \(step): \(bad)") { try table.apply(bad) }
                    #expect(observe(table) == before, "round \(round) step \(step): a refused batch changed the table")
                }
                do {
                    try table.apply(scenario.batch)
                } catch {
                    Issue.record("round \(round) step \(step): \(error)\nold \(scenario.old)\nnew \(scenario.new)\n\(scenario.batch)")
                    return
                }
                table.checkInvariants()
                #expect((0..<table.numberOfSections).map { table.numberOfRows(inSection: $0) } == scenario.new.map(\.count))
                for path in table.indexPathsForVisibleRows {
                    #expect(
                        table.cellForRow(at: path)?.textLabel?.text == source[path],
                        "round \(round) step \(step): cell at \(path)\nold \(scenario.old)\nnew \(scenario.new)\n\(scenario.batch)")
                }
                let selectedAfter = Set((table.indexPathsForSelectedRows ?? []).map { source[$0] })
                #expect(selectedAfter == keptSelection, "round \(round) step \(step): selection \(selectedBefore) -> \(selectedAfter)")
            }
        }
    }
}
