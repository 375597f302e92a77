/// A batch refused by UIKit's validation (docs/table-view-rules.md §2, E1–E14). The table
/// is left exactly as it was before the batch.
///
/// ```swift
/// do { try table.apply(batch) } catch let error as TableUpdateError {
///     if case .invalidRowCount(let section, _, _, _, _, _, _) = error.failure { print(section) }
///     print(error.message)
/// }
/// ```
public struct TableUpdateError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What failed, with the numbers UIKit's message reports.
    ///
    /// ```swift
    /// if case .invalidSectionCount = error.failure { table.reloadData() }
    /// ```
    public enum Failure: Hashable, Sendable {
        /// E1: a path both deleted and reloaded.
        case deleteAndReloadRow(IndexPath)
        /// E1 for sections (our own wording: UIKit only words the row case).
        case deleteAndReloadSection(Int)
        /// E2: a deleted (or reloaded) section past the old count.
        case deleteSectionOutOfRange(section: Int, sectionCount: Int)
        /// E3: a row deleted (or reloaded) in a section past the old count.
        case deleteRowInMissingSection(row: Int, section: Int, sectionCount: Int)
        /// E4: a row deleted (or reloaded) past its section's old end.
        case deleteRowOutOfRange(row: Int, section: Int, rowCount: Int)
        /// E5: a delete or reload at a row move's source.
        case deleteAndMoveRow(IndexPath)
        /// E5: a deleted or reloaded section that is also moved.
        case deleteAndMoveSection(Int)
        /// E6: an inserted section past the new count.
        case insertSectionOutOfRange(section: Int, sectionCount: Int)
        /// E7: a row inserted into a section past the new count.
        case insertRowInMissingSection(row: Int, section: Int, sectionCount: Int)
        /// E8: a row inserted past its section's new end.
        case insertRowOutOfRange(row: Int, section: Int, rowCount: Int)
        /// E9: an insert at a row move's destination.
        case insertAndMoveRow(IndexPath)
        /// E9: an inserted section that is also a move's destination.
        case insertAndMoveSection(Int)
        /// E10: a moved section past the old count.
        case moveSectionFromOutOfRange(section: Int, sectionCount: Int)
        /// E10: a section moved past the new count.
        case moveSectionToOutOfRange(from: Int, to: Int, sectionCount: Int)
        /// E10: a row moved from a section past the old count.
        case moveRowFromMissingSection(IndexPath, sectionCount: Int)
        /// E10: a row moved from past its section's old end.
        case moveRowFromOutOfRange(IndexPath, rowCount: Int)
        /// E10: a row moved into a section past the new count.
        case moveRowToMissingSection(from: IndexPath, to: IndexPath, sectionCount: Int)
        /// E10: a row moved past its destination section's new end.
        case moveRowToOutOfRange(from: IndexPath, to: IndexPath, rowCount: Int)
        /// E11: one section moved to two places.
        case sectionMovedTwice(section: Int, first: Int, second: Int)
        /// E11: one row moved to two places.
        case rowMovedTwice(IndexPath, first: IndexPath, second: IndexPath)
        /// E11: two sections moved to one place.
        case sectionsMovedToSame(first: Int, second: Int, to: Int)
        /// E11: two rows moved to one place.
        case rowsMovedToSame(first: IndexPath, second: IndexPath, to: IndexPath)
        /// E12: sections after != before + inserted − deleted (rule 1.10).
        case invalidSectionCount(after: Int, before: Int, inserted: Int, deleted: Int)
        /// E13: rows after != before ± inserted/deleted ± moved in/out (rule 1.11).
        case invalidRowCount(
            section: Int, after: Int, before: Int, inserted: Int, deleted: Int, movedIn: Int, movedOut: Int
        )
        /// E14: the data source reported a negative row count.
        case negativeRowCount(section: Int)

        /// UIKit's rule number: "E1" … "E14".
        ///
        /// ```swift
        /// error.failure.code   // "E13"
        /// ```
        public var code: String {
            switch self {
            case .deleteAndReloadRow, .deleteAndReloadSection: "E1"
            case .deleteSectionOutOfRange: "E2"
            case .deleteRowInMissingSection: "E3"
            case .deleteRowOutOfRange: "E4"
            case .deleteAndMoveRow, .deleteAndMoveSection: "E5"
            case .insertSectionOutOfRange: "E6"
            case .insertRowInMissingSection: "E7"
            case .insertRowOutOfRange: "E8"
            case .insertAndMoveRow, .insertAndMoveSection: "E9"
            case .moveSectionFromOutOfRange, .moveSectionToOutOfRange, .moveRowFromMissingSection,
                .moveRowFromOutOfRange, .moveRowToMissingSection, .moveRowToOutOfRange:
                "E10"
            case .sectionMovedTwice, .rowMovedTwice, .sectionsMovedToSame, .rowsMovedToSame: "E11"
            case .invalidSectionCount: "E12"
            case .invalidRowCount: "E13"
            case .negativeRowCount: "E14"
            }
        }
    }

    /// What failed.
    ///
    /// ```swift
    /// switch error.failure { case .deleteAndReloadRow(let path): print(path); default: break }
    /// ```
    public let failure: Failure
    /// The message, in the table's dialect at the time of the refusal.
    ///
    /// ```swift
    /// print(error.message)
    /// ```
    public let message: String

    /// The message.
    ///
    /// ```swift
    /// print(error)
    /// ```
    public var description: String { message }
}
