extension TableUpdateError {
    /// What the iOS 14+ wordings quote besides the failure itself.
    struct Context {
        var tableDescription: String
        var countsBefore: [Int]
        var countsAfter: [Int]
        var batch: TableBatch
    }

    init(_ failure: Failure, dialect: UpdateMessageDialect, context: Context) {
        self.failure = failure
        self.message = Self.message(for: failure, dialect: dialect, context: context)
    }

    /// UIKit's text for a failure (docs/table-view-rules.md §2; `%@` is the path's description).
    static func message(for failure: Failure, dialect: UpdateMessageDialect, context: Context) -> String {
        let gap = dialect == .iOS12 ? "  " : " "
        switch failure {
        case .deleteAndReloadRow(let path):
            return "attempt to delete and reload the same index path (\(path))"
        case .deleteAndReloadSection(let section):
            return "attempt to delete and reload the same section (\(section))"
        case .deleteSectionOutOfRange(let section, let count):
            return "attempt to delete section \(section), but there are only \(count) sections before the update"
        case .deleteRowInMissingSection(let row, let section, let count):
            return "attempt to delete row \(row) from section \(section), but there are only \(count) sections before the update"
        case .deleteRowOutOfRange(let row, let section, let count):
            return "attempt to delete row \(row) from section \(section) which only contains \(count) rows before the update"
        case .deleteAndMoveRow(let path):
            return "attempt to perform a delete and a move from the same index path (\(path))"
        case .deleteAndMoveSection(let section):
            return "attempt to perform a delete and a move from the same section (\(section))"
        case .insertSectionOutOfRange(let section, let count):
            return "attempt to insert section \(section) but there are only \(count) sections after the update"
        case .insertRowInMissingSection(let row, let section, let count):
            return "attempt to insert row \(row) into section \(section), but there are only \(count) sections after the update"
        case .insertRowOutOfRange(let row, let section, let count):
            return
                "attempt to insert row \(row) into section \(section), but there are only \(count) rows in section \(section) after the update"
        case .insertAndMoveRow(let path):
            return "attempt to perform an insert and a move to the same index path (\(path))"
        case .insertAndMoveSection(let section):
            return "attempt to perform an insert and a move to the same section (\(section))"
        case .moveSectionFromOutOfRange(let section, let count):
            return "attempt to move section \(section), but there are only \(count) sections before the update"
        case .moveSectionToOutOfRange(let from, let to, let count):
            // The doubled "to" is UIKit's own.
            return "attempt to to move section \(from) to section \(to), but there are only \(count) sections after the update"
        case .moveRowFromMissingSection(let path, let count):
            return
                "attempt to move index path (\(path)) from a section that does not exist - there are only \(count) sections before the update"
        case .moveRowFromOutOfRange(let path, let count):
            return
                "attempt to move index path (\(path)) that does not exist - there are only \(count) rows in section \(path.section) before the update"
        case .moveRowToMissingSection(let from, let to, let count):
            return
                "attempt to move index path (\(from)) to index path (\(to)) in section that does not exist - there are only \(count) sections after the update"
        case .moveRowToOutOfRange(let from, let to, let count):
            return
                "attempt to move index path (\(from)) to index path (\(to)) that does not exist - there are only \(count) rows in section \(to.section) after the update"
        case .sectionMovedTwice(let section, let first, let second):
            return "attempt to move section \(section) to both section \(first) and section \(second)"
        case .rowMovedTwice(let path, let first, let second):
            return "attempt to move row at index path \(path) to both \(first) and \(second)"
        case .sectionsMovedToSame(let first, let second, let to):
            return "attempt to move both section \(first) and section \(second) to section \(to)"
        case .rowsMovedToSame(let first, let second, let to):
            return "attempt to move both row at index path \(first) and \(second) to \(to)"
        case .invalidSectionCount(let after, let before, let inserted, let deleted):
            if dialect == .iOS16 { return modernCountMessage(context) }
            return
                "Invalid update: invalid number of sections.\(gap)The number of sections contained in the table view after the update (\(after)) must be equal to the number of sections contained in the table view before the update (\(before)), plus or minus the number of sections inserted or deleted (\(inserted) inserted, \(deleted) deleted)."
        case .invalidRowCount(let section, let after, let before, let inserted, let deleted, let movedIn, let movedOut):
            if dialect == .iOS16 { return modernCountMessage(context) }
            let text =
                "Invalid update: invalid number of rows in section \(section).\(gap)The number of rows contained in an existing section after the update (\(after)) must be equal to the number of rows contained in that section before the update (\(before)), plus or minus the number of rows inserted or deleted from that section (\(inserted) inserted, \(deleted) deleted) and plus or minus the number of rows moved into or out of that section (\(movedIn) moved in, \(movedOut) moved out)."
            return dialect == .iOS14 ? text + " Table view: \(context.tableDescription)" : text
        case .negativeRowCount(let section):
            return "Invalid update: invalid number of rows in section \(section).\(gap)Attempt to delete more rows than exist in section."
        }
    }

    private static func modernCountMessage(_ context: Context) -> String {
        "Invalid batch updates detected: the number of sections and/or rows returned by the data source before and after performing the batch updates are inconsistent with the updates.\n"
            + "Data source before updates = \(countsSummary(context.countsBefore))\n"
            + "Data source after updates = \(countsSummary(context.countsAfter))\n"
            + "Updates = \(context.batch)\n"
            + "Table view: \(context.tableDescription)"
    }

    private static func countsSummary(_ counts: [Int]) -> String {
        let noun = counts.count == 1 ? "section" : "sections"
        let shown = counts.prefix(100).map(String.init).joined(separator: ", ")
        let more = counts.count > 100 ? ", …" : ""
        return "{ \(counts.count) \(noun) with row counts: [\(shown)\(more)] }"
    }
}
