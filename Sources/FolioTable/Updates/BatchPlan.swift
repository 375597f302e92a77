/// A batch that passed UIKit's validation, and the map from the old layout
/// to the new one that it defines.
///
/// Only per-section row counts are kept, never per-row arrays: building a
/// plan is O(changes + sections) and mapping one path is O(changes in its
/// section).
struct BatchPlan {
    /// What becomes of an old row.
    enum RowFate: Equatable {
        /// Still there, maybe shifted by other changes.
        case kept(IndexPath)
        /// Moved by the batch to this path.
        case moved(IndexPath)
        /// Reloaded: at this path, with a fresh cell and no selection (rule 1.5a).
        case reloaded(IndexPath)
        /// Deleted.
        case deleted
    }

    /// A refusal: the first failure in UIKit's order.
    struct Refusal: Error {
        let failure: TableUpdateError.Failure
    }

    let oldCounts: [Int]
    let newCounts: [Int]
    private(set) var sectionMap: [Int?] = []
    private(set) var sectionFallback: [Int] = []
    private(set) var reloadedSections: Set<Int> = []
    private(set) var removedRows: [Int: [Int]] = [:]
    private(set) var occupiedRows: [Int: [Int]] = [:]
    private(set) var rowMoves: [RowPosition: RowPosition] = [:]
    private(set) var deletedRows: Set<RowPosition> = []
    private(set) var reloadedRows: Set<RowPosition> = []

    /// Validates `batch` against the cached counts before it and the data
    /// source's counts after it, in UIKit's order (docs/table-view-rules.md §2).
    ///
    /// - Complexity: O(changes × log changes + sections).
    init(_ batch: TableBatch, oldCounts: [Int], newCounts: [Int]) throws(Refusal) {
        self.oldCounts = oldCounts
        self.newCounts = newCounts
        let input = try BatchInput(batch, oldCounts: oldCounts, newCounts: newCounts)
        try mapSections(input)
        try mapRows(input)
    }

    private mutating func mapSections(_ input: BatchInput) throws(Refusal) {
        let oldSections = oldCounts.count
        let newSections = newCounts.count
        let inserted = input.insertedSections.count + input.reloadedSections.count
        let deleted = input.deletedSections.count + input.reloadedSections.count
        if newSections != oldSections + inserted - deleted {
            throw Refusal(
                failure: .invalidSectionCount(
                    after: newSections, before: oldSections, inserted: inserted, deleted: deleted))
        }
        let removed = input.deletedSections.union(input.sectionMoves.map(\.from))
        let occupied = input.insertedSections.union(input.sectionMoves.map(\.to))
        sectionMap = Array(repeating: nil, count: oldSections)
        sectionFallback = Array(repeating: newSections, count: oldSections)
        var next = 0
        for section in 0..<oldSections {
            while occupied.contains(next) { next += 1 }
            sectionFallback[section] = next
            if removed.contains(section) { continue }
            sectionMap[section] = next
            next += 1
        }
        for move in input.sectionMoves {
            sectionMap[move.from] = move.to
            sectionFallback[move.from] = move.to
        }
        reloadedSections = input.reloadedSections
    }

    private mutating func mapRows(_ input: BatchInput) throws(Refusal) {
        let reloadedNew = Set(reloadedSections.compactMap { sectionMap[$0] })
        func gone(_ section: Int) -> Bool {
            input.deletedSections.contains(section) || reloadedSections.contains(section)
        }
        func fresh(_ section: Int) -> Bool {
            input.insertedSections.contains(section) || reloadedNew.contains(section)
        }
        // Rule 1.6: row changes inside deleted or inserted sections are dropped.
        deletedRows = input.deletedRows.filter { !gone($0.section) }
        reloadedRows = input.reloadedRows.filter { !gone($0.section) }
        var insertedRows = input.insertedRows.filter { !fresh($0.section) }
        var moves: [TableBatch.Move<RowPosition>] = []
        for move in input.rowMoves {
            // Rule 1.9, done exactly: a move out of a deleted section or into an
            // inserted one is a delete plus an insert.
            switch (gone(move.from.section), fresh(move.to.section)) {
            case (true, true): continue
            case (true, false): insertedRows.insert(move.to)
            case (false, true): deletedRows.insert(move.from)
            case (false, false): moves.append(move)
            }
        }
        var deletedCount: [Int: Int] = [:]
        var insertedCount: [Int: Int] = [:]
        var movedIn: [Int: Int] = [:]
        var movedOut: [Int: Int] = [:]
        for path in deletedRows {
            removedRows[path.section, default: []].append(path.row)
            deletedCount[path.section, default: 0] += 1
        }
        for path in reloadedRows {
            deletedCount[path.section, default: 0] += 1
            if let section = sectionMap[path.section] { insertedCount[section, default: 0] += 1 }
        }
        for path in insertedRows {
            occupiedRows[path.section, default: []].append(path.row)
            insertedCount[path.section, default: 0] += 1
        }
        for move in moves {
            removedRows[move.from.section, default: []].append(move.from.row)
            occupiedRows[move.to.section, default: []].append(move.to.row)
            rowMoves[move.from] = move.to
            // Rule 1.8: only a change of (mapped) section moves rows in or out.
            if sectionMap[move.from.section] != move.to.section {
                movedOut[move.from.section, default: 0] += 1
                movedIn[move.to.section, default: 0] += 1
            }
        }
        for key in removedRows.keys { removedRows[key]?.sort() }
        for key in occupiedRows.keys { occupiedRows[key]?.sort() }

        var origin = [Int?](repeating: nil, count: newCounts.count)
        for (old, new) in sectionMap.enumerated() where new != nil && !reloadedSections.contains(old) {
            origin[new!] = old
        }
        for section in newCounts.indices {
            if newCounts[section] < 0 { throw Refusal(failure: .negativeRowCount(section: section)) }
            guard let old = origin[section] else { continue }
            let expected =
                oldCounts[old] + insertedCount[section, default: 0] - deletedCount[old, default: 0]
                + movedIn[section, default: 0] - movedOut[old, default: 0]
            if newCounts[section] != expected {
                throw Refusal(
                    failure: .invalidRowCount(
                        section: section, after: newCounts[section], before: oldCounts[old],
                        inserted: insertedCount[section, default: 0], deleted: deletedCount[old, default: 0],
                        movedIn: movedIn[section, default: 0], movedOut: movedOut[old, default: 0]))
            }
        }
    }

    /// What becomes of the row at an old path.
    ///
    /// - Complexity: O(changes in its section).
    func fate(ofRow indexPath: IndexPath) -> RowFate {
        let path = RowPosition(indexPath)
        guard path.section >= 0, path.section < oldCounts.count, path.row >= 0 else { return .deleted }
        guard let section = sectionMap[path.section] else { return .deleted }
        if reloadedSections.contains(path.section) {
            return path.row < newCounts[section] ? .reloaded(IndexPath(row: path.row, section: section)) : .deleted
        }
        if let destination = rowMoves[path] { return .moved(destination.indexPath) }
        if deletedRows.contains(path) { return .deleted }
        let newPath = IndexPath(row: newRow(forOld: path.row, from: path.section, to: section), section: section)
        return reloadedRows.contains(path) ? .reloaded(newPath) : .kept(newPath)
    }

    /// Where an old path, or the first row after it that survives, lands;
    /// the row may lie past its section's end. Used to keep anchors.
    func approximatePosition(ofRow path: IndexPath) -> IndexPath {
        switch fate(ofRow: path) {
        case .kept(let new), .moved(let new), .reloaded(let new): return new
        case .deleted: break
        }
        guard path.section >= 0, path.section < oldCounts.count else {
            return IndexPath(row: 0, section: newCounts.count)
        }
        guard let section = sectionMap[path.section], !reloadedSections.contains(path.section) else {
            return IndexPath(row: 0, section: sectionFallback[path.section])
        }
        return IndexPath(row: newRow(forOld: path.row, from: path.section, to: section), section: section)
    }

    /// The new index of an old section, or nil when it was deleted.
    func newSection(forOld section: Int) -> Int? {
        section >= 0 && section < sectionMap.count ? sectionMap[section] : nil
    }

    /// The new index of an old section, or of the first section after it that survives.
    func approximateSection(forOld section: Int) -> Int {
        guard section >= 0, section < sectionMap.count else { return newCounts.count }
        return sectionMap[section] ?? sectionFallback[section]
    }

    private func newRow(forOld row: Int, from oldSection: Int, to newSection: Int) -> Int {
        let removed = removedRows[oldSection] ?? []
        var slot = row - Self.countBelow(row, in: removed)
        for taken in occupiedRows[newSection] ?? [] {
            if taken <= slot { slot += 1 } else { break }
        }
        return slot
    }

    private static func countBelow(_ value: Int, in sorted: [Int]) -> Int {
        var low = 0
        var high = sorted.count
        while low < high {
            let mid = (low + high) / 2
            if sorted[mid] < value { low = mid + 1 } else { high = mid }
        }
        return low
    }
}
