/// One batch of table updates in UIKit's coordinate spaces (rule 1.3):
/// deletes, reloads and move sources in the old layout; inserts and move
/// destinations in the new one. Call order does not matter (rule 1.2).
///
/// ```swift
/// var batch = TableBatch()
/// batch.deletedRows = [IndexPath(row: 0, section: 0)]
/// batch.insertedRows = [IndexPath(row: 4, section: 0)]
/// try table.apply(batch)
/// ```
package struct TableBatch: Hashable, Sendable, CustomStringConvertible {
    /// Something moved from an old position to a new one: a section index
    /// (`SectionMove`, whose rows travel with it) or a row's index path (`RowMove`).
    ///
    /// ```swift
    /// batch.movedSections.append(TableBatch.SectionMove(from: 0, to: 2))
    /// batch.movedRows.append(TableBatch.RowMove(from: IndexPath(row: 0, section: 0), to: IndexPath(row: 2, section: 0)))
    /// ```
    package struct Move<Position: Hashable & Sendable>: Hashable, Sendable {
        /// The position before the batch.
        ///
        /// ```swift
        /// move.from
        /// ```
        package var from: Position
        /// The position after the batch.
        ///
        /// ```swift
        /// move.to
        /// ```
        package var to: Position
        /// Creates a move.
        ///
        /// ```swift
        /// TableBatch.SectionMove(from: 1, to: 0)
        /// ```
        package init(from: Position, to: Position) {
            self.from = from
            self.to = to
        }
    }

    /// A section moved from an old index to a new one; its rows travel with it.
    package typealias SectionMove = Move<Int>

    /// A row moved from an old index path to a new one.
    package typealias RowMove = Move<IndexPath>

    /// Sections deleted (old indexes).
    ///
    /// ```swift
    /// batch.deletedSections = [2]
    /// ```
    package var deletedSections: [Int] = []
    /// Sections inserted (new indexes).
    ///
    /// ```swift
    /// batch.insertedSections = [0]
    /// ```
    package var insertedSections: [Int] = []
    /// Sections reloaded (old indexes): each is a delete plus an insert (rule 1.5).
    ///
    /// ```swift
    /// batch.reloadedSections = [1]
    /// ```
    package var reloadedSections: [Int] = []
    /// Sections moved (old to new).
    ///
    /// ```swift
    /// batch.movedSections = [.init(from: 0, to: 1)]
    /// ```
    package var movedSections: [SectionMove] = []
    /// Rows deleted (old paths).
    ///
    /// ```swift
    /// batch.deletedRows = [IndexPath(row: 4, section: 0)]
    /// ```
    package var deletedRows: [IndexPath] = []
    /// Rows inserted (new paths).
    ///
    /// ```swift
    /// batch.insertedRows = [IndexPath(row: 0, section: 0)]
    /// ```
    package var insertedRows: [IndexPath] = []
    /// Rows reloaded (old paths): each is a delete plus an insert (rule 1.5).
    ///
    /// ```swift
    /// batch.reloadedRows = [IndexPath(row: 1, section: 0)]
    /// ```
    package var reloadedRows: [IndexPath] = []
    /// Rows moved (old to new).
    ///
    /// ```swift
    /// batch.movedRows = [.init(from: IndexPath(row: 0, section: 0), to: IndexPath(row: 1, section: 0))]
    /// ```
    package var movedRows: [RowMove] = []

    /// An empty batch: `TableBatch()`.
    ///
    /// ```swift
    /// var batch = TableBatch()
    /// ```
    package init() {}

    /// Whether the batch holds no operation.
    ///
    /// ```swift
    /// if !batch.isEmpty { try table.apply(batch) }
    /// ```
    package var isEmpty: Bool { changeCount == 0 }

    /// The number of operations in the batch.
    ///
    /// ```swift
    /// print(batch.changeCount)
    /// ```
    package var changeCount: Int {
        deletedSections.count + insertedSections.count + reloadedSections.count + movedSections.count
            + deletedRows.count + insertedRows.count + reloadedRows.count + movedRows.count
    }

    /// A one-line summary in UIKit's "Updates = [...]" manner.
    ///
    /// ```swift
    /// print(batch)   // [ Delete row (0 - 4), Insert row (0 - 0) ]
    /// ```
    package var description: String {
        var parts: [String] = []
        parts += deletedSections.map { "Delete section \($0)" }
        parts += insertedSections.map { "Insert section \($0)" }
        parts += reloadedSections.map { "Reload section \($0)" }
        parts += movedSections.map { "Move section \($0.from) -> \($0.to)" }
        parts += deletedRows.map { "Delete row (\($0.section) - \($0.row))" }
        parts += insertedRows.map { "Insert row (\($0.section) - \($0.row))" }
        parts += reloadedRows.map { "Reload row (\($0.section) - \($0.row))" }
        parts += movedRows.map { "Move row (\($0.from.section) - \($0.from.row)) -> (\($0.to.section) - \($0.to.row))" }
        return "[ " + parts.joined(separator: ", ") + " ]"
    }
}
