/// A batch with duplicates collapsed (rule 1.6, E11's identical moves) and
/// checked, in UIKit's order, for everything but the counts (E1–E11).
struct BatchInput {
    let deletedSections: Set<Int>
    let insertedSections: Set<Int>
    let reloadedSections: Set<Int>
    let sectionMoves: [TableBatch.SectionMove]
    let deletedRows: Set<RowPosition>
    let insertedRows: Set<RowPosition>
    let reloadedRows: Set<RowPosition>
    let rowMoves: [TableBatch.Move<RowPosition>]

    /// - Complexity: O(changes × log changes).
    init(_ batch: TableBatch, oldCounts: [Int], newCounts: [Int]) throws(BatchPlan.Refusal) {
        deletedSections = Set(batch.deletedSections)
        insertedSections = Set(batch.insertedSections)
        reloadedSections = Set(batch.reloadedSections)
        sectionMoves = Self.unique(batch.movedSections)
        deletedRows = Set(batch.deletedRows.map(RowPosition.init))
        insertedRows = Set(batch.insertedRows.map(RowPosition.init))
        reloadedRows = Set(batch.reloadedRows.map(RowPosition.init))
        rowMoves = Self.unique(batch.movedRows.map(\.positions))
        try checkReloads()
        try checkDeletes(oldCounts)
        try checkInserts(newCounts)
        try checkSectionMoves(oldCount: oldCounts.count, newCount: newCounts.count)
        try checkRowMoves(oldCounts, newCounts)
    }

    private static func unique<T: Hashable>(_ items: [T]) -> [T] {
        var seen = Set<T>()
        return items.filter { seen.insert($0).inserted }
    }

    private func fail(_ failure: TableUpdateError.Failure) -> BatchPlan.Refusal {
        BatchPlan.Refusal(failure: failure)
    }

    /// E1: a reload is a delete, so it cannot be combined with one.
    private func checkReloads() throws(BatchPlan.Refusal) {
        if let path = reloadedRows.intersection(deletedRows).min() { throw fail(.deleteAndReloadRow(path.indexPath)) }
        if let section = reloadedSections.intersection(deletedSections).min() {
            throw fail(.deleteAndReloadSection(section))
        }
    }

    /// E2–E5, in old coordinates; reloads count as deletes.
    private func checkDeletes(_ oldCounts: [Int]) throws(BatchPlan.Refusal) {
        let moveSources = Set(sectionMoves.map(\.from))
        for section in deletedSections.union(reloadedSections).sorted() {
            if section < 0 || section >= oldCounts.count {
                throw fail(.deleteSectionOutOfRange(section: section, sectionCount: oldCounts.count))
            }
            if moveSources.contains(section) { throw fail(.deleteAndMoveSection(section)) }
        }
        let rowSources = Set(rowMoves.map(\.from))
        for path in deletedRows.union(reloadedRows).sorted() {
            if path.section < 0 || path.section >= oldCounts.count {
                throw fail(.deleteRowInMissingSection(row: path.row, section: path.section, sectionCount: oldCounts.count))
            }
            if path.row < 0 || path.row >= oldCounts[path.section] {
                throw fail(.deleteRowOutOfRange(row: path.row, section: path.section, rowCount: oldCounts[path.section]))
            }
            if rowSources.contains(path) { throw fail(.deleteAndMoveRow(path.indexPath)) }
        }
    }

    /// E6–E9, in new coordinates.
    private func checkInserts(_ newCounts: [Int]) throws(BatchPlan.Refusal) {
        let moveTargets = Set(sectionMoves.map(\.to))
        for section in insertedSections.sorted() {
            if section < 0 || section >= newCounts.count {
                throw fail(.insertSectionOutOfRange(section: section, sectionCount: newCounts.count))
            }
            if moveTargets.contains(section) { throw fail(.insertAndMoveSection(section)) }
        }
        let rowTargets = Set(rowMoves.map(\.to))
        for path in insertedRows.sorted() {
            if path.section < 0 || path.section >= newCounts.count {
                throw fail(.insertRowInMissingSection(row: path.row, section: path.section, sectionCount: newCounts.count))
            }
            if path.row < 0 || path.row >= newCounts[path.section] {
                throw fail(.insertRowOutOfRange(row: path.row, section: path.section, rowCount: newCounts[path.section]))
            }
            if rowTargets.contains(path) { throw fail(.insertAndMoveRow(path.indexPath)) }
        }
    }

    /// E10 and E11 for sections.
    private func checkSectionMoves(oldCount: Int, newCount: Int) throws(BatchPlan.Refusal) {
        var targetOf: [Int: Int] = [:]
        var sourceOf: [Int: Int] = [:]
        for move in sectionMoves {
            if move.from < 0 || move.from >= oldCount {
                throw fail(.moveSectionFromOutOfRange(section: move.from, sectionCount: oldCount))
            }
            if move.to < 0 || move.to >= newCount {
                throw fail(.moveSectionToOutOfRange(from: move.from, to: move.to, sectionCount: newCount))
            }
            if let first = targetOf[move.from] {
                throw fail(.sectionMovedTwice(section: move.from, first: first, second: move.to))
            }
            if let first = sourceOf[move.to] {
                throw fail(.sectionsMovedToSame(first: first, second: move.from, to: move.to))
            }
            targetOf[move.from] = move.to
            sourceOf[move.to] = move.from
        }
    }

    /// E10 and E11 for rows.
    private func checkRowMoves(_ oldCounts: [Int], _ newCounts: [Int]) throws(BatchPlan.Refusal) {
        var targetOf: [RowPosition: RowPosition] = [:]
        var sourceOf: [RowPosition: RowPosition] = [:]
        for move in rowMoves {
            let (from, to) = (move.from.indexPath, move.to.indexPath)
            if from.section < 0 || from.section >= oldCounts.count {
                throw fail(.moveRowFromMissingSection(from, sectionCount: oldCounts.count))
            }
            if from.row < 0 || from.row >= oldCounts[from.section] {
                throw fail(.moveRowFromOutOfRange(from, rowCount: oldCounts[from.section]))
            }
            if to.section < 0 || to.section >= newCounts.count {
                throw fail(.moveRowToMissingSection(from: from, to: to, sectionCount: newCounts.count))
            }
            if to.row < 0 || to.row >= newCounts[to.section] {
                throw fail(.moveRowToOutOfRange(from: from, to: to, rowCount: newCounts[to.section]))
            }
            if let first = targetOf[move.from] { throw fail(.rowMovedTwice(from, first: first.indexPath, second: to)) }
            if let first = sourceOf[move.to] { throw fail(.rowsMovedToSame(first: first.indexPath, second: from, to: to)) }
            targetOf[move.from] = move.to
            sourceOf[move.to] = move.from
        }
    }
}
