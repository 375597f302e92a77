/// A row's section and row as two plain integers, for the sets, maps and
/// sorts inside a batch. Foundation's `IndexPath` is a general n-index path
/// whose hashing, comparison and index reads are calls into Foundation; a
/// 1,000-change batch did twice the work with it (`folio-bench table`).
/// Paths are converted once on the way in and back only where one leaves.
struct RowPosition: Hashable, Comparable {
    var section: Int
    var row: Int

    init(_ path: IndexPath) {
        section = path.section
        row = path.row
    }

    var indexPath: IndexPath { IndexPath(row: row, section: section) }

    static func < (lhs: RowPosition, rhs: RowPosition) -> Bool {
        (lhs.section, lhs.row) < (rhs.section, rhs.row)
    }
}

extension TableBatch.Move where Position == IndexPath {
    /// The move between row positions.
    var positions: TableBatch.Move<RowPosition> {
        TableBatch.Move(from: RowPosition(from), to: RowPosition(to))
    }
}
