import FolioResults

/// Applies a change report to the old sections the way UITableView's batch
/// updates do (docs/table-view-rules.md §1–2): validation in iOS 12's order, deletes in old
/// coordinates, inserts in new, reloads in place, moves as delete + insert,
/// and inserted sections filled from the data source.
///
/// ```swift
/// let result = try ResultsBatchApplier.apply(report, to: oldSections, dataSource: newSections)
/// #expect(result.map(\.ids) == newSections.map(\.ids))
/// ```
public enum ResultsBatchApplier {
    /// One section: its identity and its row identifiers in order.
    ///
    /// ```swift
    /// let section: ResultsBatchApplier.Section<Int, String> = (section: "A", ids: [1, 2])
    /// ```
    public typealias Section<ID, Key> = (section: Key, ids: [ID])

    /// Applies `changes` to `old`; `dataSource` is what the data source
    /// answers after the batch (used for counts and inserted sections).
    ///
    /// ```swift
    /// let result = try ResultsBatchApplier.apply(report, to: old, dataSource: new)
    /// ```
    /// - Complexity: O(n + k log k) for n rows and k changes.
    public static func apply<ID: Hashable & Sendable, Key: Hashable & Sendable>(
        _ changes: ResultsChangeSet<ID, Key>,
        to old: [Section<ID, Key>],
        dataSource new: [Section<ID, Key>]
    ) throws(ResultsBatchError) -> [Section<ID, Key>] {
        let deletedSections = Set(changes.sectionChanges.filter { $0.type == .delete }.map(\.index))
        let insertedSections = Set(changes.sectionChanges.filter { $0.type == .insert }.map(\.index))
        var deletes: [IndexPath: ID] = [:], reloads: [IndexPath: (ID, IndexPath)] = [:]
        var inserts: [IndexPath: ID] = [:], moveSources: [IndexPath: (ID, IndexPath)] = [:], moveTargets: [IndexPath: IndexPath] = [:]
        for change in changes.objectChanges {
            switch change.type {
            case .delete: deletes[change.indexPath!] = change.id
            case .insert: inserts[change.newIndexPath!] = change.id
            case .update: reloads[change.indexPath!] = (change.id, change.newIndexPath ?? change.indexPath!)
            case .move:
                let (from, to) = (change.indexPath!, change.newIndexPath!)
                if let other = moveSources[from], other.1 != to {
                    throw ResultsBatchError(rule: "E11", message: "attempt to move row at index path \(from) to both \(other.1) and \(to)")
                }
                if let other = moveTargets[to], other != from {
                    throw ResultsBatchError(rule: "E11", message: "attempt to move both row at index path \(other) and \(from) to \(to)")
                }
                moveSources[from] = (change.id, to)
                moveTargets[to] = from
            }
        }
        // Validation, in the order iOS 12 checks.
        for path in reloads.keys where deletes[path] != nil {
            throw ResultsBatchError(rule: "E1", message: "attempt to delete and reload the same index path (\(path))")
        }
        for section in deletedSections where section >= old.count {
            throw ResultsBatchError(
                rule: "E2", message: "attempt to delete section \(section), but there are only \(old.count) sections before the update")
        }
        for path in Array(deletes.keys) + Array(reloads.keys) + Array(moveSources.keys) {
            guard path.section < old.count else {
                throw ResultsBatchError(
                    rule: "E3",
                    message:
                        "attempt to delete row \(path.row) from section \(path.section), but there are only \(old.count) sections before the update"
                )
            }
            guard path.row < old[path.section].ids.count else {
                throw ResultsBatchError(
                    rule: "E4",
                    message:
                        "attempt to delete row \(path.row) from section \(path.section) which only contains \(old[path.section].ids.count) rows before the update"
                )
            }
            let expected = deletes[path] ?? reloads[path]?.0 ?? moveSources[path]!.0
            guard old[path.section].ids[path.row] == expected else {
                throw ResultsBatchError(
                    rule: "model", message: "row \(path) held \(old[path.section].ids[path.row]) before the update, not \(expected)")
            }
        }
        for path in moveSources.keys where deletes[path] != nil || reloads[path] != nil {
            throw ResultsBatchError(rule: "E5", message: "attempt to perform a delete and a move from the same index path (\(path))")
        }
        for section in insertedSections where section >= new.count {
            throw ResultsBatchError(
                rule: "E6", message: "attempt to insert section \(section) but there are only \(new.count) sections after the update")
        }
        for path in Array(inserts.keys) + Array(moveTargets.keys) {
            guard path.section < new.count else {
                throw ResultsBatchError(
                    rule: "E7",
                    message:
                        "attempt to insert row \(path.row) into section \(path.section), but there are only \(new.count) sections after the update"
                )
            }
            guard path.row < new[path.section].ids.count else {
                throw ResultsBatchError(
                    rule: "E8",
                    message:
                        "attempt to insert row \(path.row) into section \(path.section), but there are only \(new[path.section].ids.count) rows in section \(path.section) after the update"
                )
            }
        }
        for path in moveTargets.keys where inserts[path] != nil {
            throw ResultsBatchError(rule: "E9", message: "attempt to perform an insert and a move to the same index path (\(path))")
        }
        for (from, move) in moveSources {
            if deletedSections.contains(from.section) {
                throw ResultsBatchError(rule: "1.9", message: "cannot move an item from a deleted section (\(from.section))")
            }
            if insertedSections.contains(move.1.section) {
                throw ResultsBatchError(rule: "1.9", message: "cannot move an item into a newly inserted section (\(move.1.section))")
            }
        }
        // Section mapping: old survivors keep their order; inserted ones slot in.
        let expectedSections = old.count + insertedSections.count - deletedSections.count
        guard new.count == expectedSections else {
            throw ResultsBatchError(
                rule: "E12",
                message:
                    "Invalid update: invalid number of sections.  The number of sections contained in the table view after the update (\(new.count)) must be equal to the number of sections contained in the table view before the update (\(old.count)), plus or minus the number of sections inserted or deleted (\(insertedSections.count) inserted, \(deletedSections.count) deleted)."
            )
        }
        let survivors = old.indices.filter { !deletedSections.contains($0) }
        var oldFor = [Int?](repeating: nil, count: new.count)
        var next = survivors.makeIterator()
        for index in new.indices where !insertedSections.contains(index) { oldFor[index] = next.next() }

        var result: [Section<ID, Key>] = []
        for index in new.indices {
            guard let source = oldFor[index] else {
                result.append(new[index])  // UIKit asks the data source for an inserted section
                continue
            }
            var ids: [ID] = []
            var deleted = 0, movedOut = 0
            for (row, id) in old[source].ids.enumerated() {
                let path = IndexPath(row: row, section: source)
                if deletes[path] != nil { deleted += 1; continue }
                if let move = moveSources[path] {
                    if move.1.section != index { movedOut += 1 }
                    continue
                }
                ids.append(id)
            }
            var arriving: [(row: Int, id: ID, movedIn: Bool)] = []
            for (path, id) in inserts where path.section == index { arriving.append((path.row, id, false)) }
            for (path, from) in moveTargets where path.section == index {
                arriving.append((path.row, moveSources[from]!.0, oldFor[index] != from.section))
            }
            arriving.sort { $0.row < $1.row }
            let insertedCount = inserts.keys.filter { $0.section == index }.count
            let movedIn = arriving.filter(\.movedIn).count
            let expected = old[source].ids.count + insertedCount - deleted + movedIn - movedOut
            guard new[index].ids.count == expected else {
                throw ResultsBatchError(
                    rule: "E13",
                    message:
                        "Invalid update: invalid number of rows in section \(index).  The number of rows contained in an existing section after the update (\(new[index].ids.count)) must be equal to the number of rows contained in that section before the update (\(old[source].ids.count)), plus or minus the number of rows inserted or deleted from that section (\(insertedCount) inserted, \(deleted) deleted) and plus or minus the number of rows moved into or out of that section (\(movedIn) moved in, \(movedOut) moved out)."
                )
            }
            for item in arriving { ids.insert(item.id, at: item.row) }
            result.append((new[index].section, ids))
        }
        for (old, reload) in reloads {
            let (id, path) = reload
            guard path.section < result.count, path.row < result[path.section].ids.count, result[path.section].ids[path.row] == id else {
                throw ResultsBatchError(rule: "model", message: "reloaded row \(old) did not land at \(path)")
            }
        }
        return result
    }
}
