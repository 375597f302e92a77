import FolioTable

/// A random batch for table tests: the sections before and after, and the
/// `TableBatch` in UIKit's coordinates that turns one into the other —
/// deletes, inserts, reloads and moves of rows and sections, plus changes
/// UIKit drops (rule 1.6) or converts (rule 1.9).
///
/// ```swift
/// var random = ResultsRandom(seed: 7)
/// var ids = 0
/// let scenario = TableScenario.random(from: [[ "r0", "r1" ]], using: &random, nextID: &ids)
/// source.sections = scenario.new
/// try table.apply(scenario.batch)
/// ```
public struct TableScenario {
    /// What happens to an old row: it stays (maybe shifted), is deleted,
    /// reloaded (fresh cell, selection dropped) or moved (keeps its cell).
    ///
    /// ```swift
    /// if scenario.fates[path] == .move { expectSelectionToFollow(path) }
    /// ```
    public enum Fate: Equatable, Sendable {
        /// One of the four fates.
        case stay, delete, reload, move
    }

    /// The rows before.
    public var old: [[String]]
    /// The rows after.
    public var new: [[String]]
    /// The batch from `old` to `new`.
    package var batch: TableBatch
    /// The fate of each old row (rows of deleted or reloaded sections are `.delete`/`.reload`).
    public var fates: [IndexPath: Fate]
    /// Old sections deleted or reloaded: row changes inside them are dropped.
    public var goneSections: Set<Int> = []
    /// New sections inserted or reloaded: row inserts inside them are dropped.
    public var freshSections: Set<Int> = []

    private struct Placed {
        var text: String
        var origin: IndexPath?
        var isMove: Bool
    }

    /// A random scenario from `old`; new rows get ids from `nextID`.
    public static func random(
        from old: [[String]], using random: inout ResultsRandom, nextID: inout Int
    ) -> TableScenario {
        func fresh() -> String { nextID += 1; return "r\(nextID)" }
        func roll(_ chance: Double) -> Bool { Double.random(in: 0..<1, using: &random) < chance }
        var batch = TableBatch()
        var fates: [IndexPath: Fate] = [:]

        // Sections: each old one is deleted, reloaded, moved or stays.
        enum SectionFate { case stay, delete, reload, move }
        let sectionFates: [SectionFate] = old.indices.map { _ in
            roll(0.1) ? .delete : roll(0.06) ? .reload : roll(0.1) ? .move : .stay
        }
        // New section order: stationary ones in order, then moved and inserted ones dropped in.
        enum NewSection { case old(Int), inserted }
        var order: [NewSection] = old.indices.filter { sectionFates[$0] == .stay || sectionFates[$0] == .reload }.map { .old($0) }
        var placed: [NewSection] = old.indices.filter { sectionFates[$0] == .move }.map { .old($0) }
        placed += (0..<(roll(0.3) ? Int.random(in: 1...2, using: &random) : 0)).map { _ in .inserted }
        for section in placed.shuffled(using: &random) {
            order.insert(section, at: Int.random(in: 0...order.count, using: &random))
        }
        var newIndexOfOld: [Int: Int] = [:]
        for (index, section) in order.enumerated() {
            if case .old(let oldIndex) = section { newIndexOfOld[oldIndex] = index }
        }
        func isFresh(_ newIndex: Int) -> Bool {
            switch order[newIndex] {
            case .inserted: true
            case .old(let oldIndex): sectionFates[oldIndex] == .reload
            }
        }

        // Rows of surviving sections: stay, delete, reload or move.
        var content: [[Placed]] = order.map { section in
            switch section {
            case .inserted: return []
            case .old(let oldIndex):
                if sectionFates[oldIndex] == .reload {
                    return (0..<Int.random(in: 0...3, using: &random)).map { _ in Placed(text: fresh(), origin: nil, isMove: false) }
                }
                return []
            }
        }
        var moving: [(path: IndexPath, text: String)] = []
        for (s, rows) in old.enumerated() {
            for (r, text) in rows.enumerated() {
                let path = IndexPath(row: r, section: s)
                switch sectionFates[s] {
                case .delete:
                    fates[path] = .delete
                    if roll(0.1) {
                        batch.deletedRows.append(path)  // dropped (rule 1.6)
                    } else if roll(0.05) {
                        moving.append((path, text))  // becomes an insert (rule 1.9)
                    }
                    continue
                case .reload:
                    fates[path] = .reload
                    continue
                case .stay, .move:
                    break
                }
                let newSection = newIndexOfOld[s]!
                if roll(0.1) {
                    fates[path] = .delete
                    batch.deletedRows.append(path)
                } else if roll(0.08) {
                    fates[path] = .move
                    moving.append((path, text))
                } else if roll(0.06) {
                    fates[path] = .reload
                    batch.reloadedRows.append(path)
                    content[newSection].append(Placed(text: text + "'", origin: path, isMove: false))
                } else {
                    fates[path] = .stay
                    content[newSection].append(Placed(text: text, origin: path, isMove: false))
                }
            }
        }
        // Moved and inserted rows land anywhere among the stationary ones.
        var arrivals: [[Placed]] = order.map { _ in [] }
        if !order.isEmpty {
            for (path, text) in moving {
                arrivals[Int.random(in: 0..<order.count, using: &random)].append(Placed(text: text, origin: path, isMove: true))
            }
            for _ in 0..<Int.random(in: 0...4, using: &random) {
                arrivals[Int.random(in: 0..<order.count, using: &random)].append(Placed(text: fresh(), origin: nil, isMove: false))
            }
        } else {
            for (path, _) in moving where sectionFates[path.section] != .delete {
                fates[path] = .delete
                batch.deletedRows.append(path)
            }
        }
        for section in content.indices {
            for arrival in arrivals[section] {
                content[section].insert(arrival, at: Int.random(in: 0...content[section].count, using: &random))
            }
        }

        // The batch, from the final layout.
        for (index, section) in order.enumerated() {
            switch section {
            case .inserted:
                batch.insertedSections.append(index)
            case .old(let oldIndex):
                switch sectionFates[oldIndex] {
                case .reload: batch.reloadedSections.append(oldIndex)
                case .move: batch.movedSections.append(TableBatch.SectionMove(from: oldIndex, to: index))
                default: break
                }
            }
            for (row, item) in content[index].enumerated() {
                let path = IndexPath(row: row, section: index)
                if item.isMove, let origin = item.origin {
                    batch.movedRows.append(TableBatch.RowMove(from: origin, to: path))
                } else if item.origin == nil, !isFresh(index) || roll(0.2) {
                    batch.insertedRows.append(path)  // inside a fresh section it is dropped (rule 1.6)
                }
            }
        }
        batch.deletedSections = old.indices.filter { sectionFates[$0] == .delete }
        for path in fates.keys where fates[path] == .move {
            // A move into a fresh section is a delete plus an insert (rule 1.9): the row loses its identity.
            if let move = batch.movedRows.first(where: { $0.from == path }), isFresh(move.to.section) { fates[path] = .delete }
        }
        batch.deletedRows.shuffle(using: &random)
        batch.insertedRows.shuffle(using: &random)
        batch.movedRows.shuffle(using: &random)
        var scenario = TableScenario(old: old, new: content.map { $0.map(\.text) }, batch: batch, fates: fates)
        scenario.goneSections = Set(old.indices.filter { sectionFates[$0] == .delete || sectionFates[$0] == .reload })
        scenario.freshSections = Set(order.indices.filter(isFresh))
        return scenario
    }
}
