extension TableView {
    /// UIKit's row animations; accepted for familiarity, ignored headless.
    ///
    /// ```swift
    /// table.deleteRows(at: [path], with: .fade)
    /// ```
    public enum RowAnimation: Sendable {
        /// UIKit's animation styles, by name.
        case fade, right, left, top, bottom, none, middle, automatic
    }

    /// Groups updates into one batch, processed when the outermost group
    /// ends (rules 1.1, 1.2); `completion(true)` runs after the batch is
    /// applied (rule 1.13). An invalid batch traps with UIKit's message, as
    /// UIKit does; `performCheckedBatchUpdates` throws instead.
    ///
    /// ```swift
    /// table.performBatchUpdates {
    ///     table.deleteRows(at: [IndexPath(row: 0, section: 0)], with: .fade)
    ///     table.insertRows(at: [IndexPath(row: 3, section: 0)], with: .fade)
    /// }
    /// ```
    public func performBatchUpdates(_ updates: (() -> Void)?, completion: ((Bool) -> Void)? = nil) {
        beginUpdates()
        updates?()
        endUpdates()
        completion?(true)
    }

    /// `performBatchUpdates` that throws a refused batch as `TableUpdateError`
    /// and leaves the table as it was, for tests and callers that recover.
    ///
    /// ```swift
    /// table.performCheckedBatchUpdates { table.deleteSections([2]) }
    /// ```
    public func performCheckedBatchUpdates(_ updates: () -> Void, completion: ((Bool) -> Void)? = nil) throws(TableUpdateError) {
        beginUpdates()
        updates()
        try endCheckedUpdates()
        completion?(true)
    }

    /// Opens a batch; calls may nest (rule 1.1).
    ///
    /// ```swift
    /// table.beginUpdates(); table.deleteSections([2], with: .fade); table.endUpdates()
    /// ```
    public func beginUpdates() {
        batchDepth += 1
    }

    /// Closes a batch; the outermost close validates and applies it, and an
    /// invalid batch traps with UIKit's message ("Invalid update: …").
    ///
    /// ```swift
    /// table.beginUpdates(); table.insertRows(at: [path], with: .fade); table.endUpdates()
    /// ```
    public func endUpdates() {
        do { try endCheckedUpdates() } catch { Self.trap(error) }
    }

    /// `endUpdates` that throws a refused batch and leaves the table as it was.
    ///
    /// ```swift
    /// table.beginUpdates(); table.insertRows(at: [path]); try table.endCheckedUpdates()
    /// ```
    public func endCheckedUpdates() throws(TableUpdateError) {
        precondition(batchDepth > 0, "endUpdates() called without a matching beginUpdates()")
        batchDepth -= 1
        guard batchDepth == 0 else { return }
        let batch = pendingBatch
        pendingBatch = TableBatch()
        try apply(batch)
    }

    /// UIKit raises NSInternalInconsistencyException, which ends the app.
    private static func trap(_ error: TableUpdateError) -> Never {
        fatalError(error.message)
    }

    /// Whether a batch is open and holds changes not yet applied.
    ///
    /// ```swift
    /// if table.hasUncommittedUpdates { table.endUpdates() }
    /// ```
    public var hasUncommittedUpdates: Bool { batchDepth > 0 && !pendingBatch.isEmpty }

    /// Inserts rows at new paths; outside a batch this is a batch of its own.
    ///
    /// ```swift
    /// table.insertRows(at: [IndexPath(row: 0, section: 0)], with: .automatic)
    /// ```
    public func insertRows(at indexPaths: [IndexPath], with animation: RowAnimation = .automatic) {
        record { $0.insertedRows += indexPaths }
    }

    /// Deletes rows at old paths.
    ///
    /// ```swift
    /// table.deleteRows(at: [IndexPath(row: 2, section: 0)], with: .fade)
    /// ```
    public func deleteRows(at indexPaths: [IndexPath], with animation: RowAnimation = .automatic) {
        record { $0.deletedRows += indexPaths }
    }

    /// Reloads rows at old paths: fresh cells, selection dropped (rules 1.5, 5.7).
    ///
    /// ```swift
    /// table.reloadRows(at: [IndexPath(row: 2, section: 0)])
    /// ```
    public func reloadRows(at indexPaths: [IndexPath], with animation: RowAnimation = .automatic) {
        record { $0.reloadedRows += indexPaths }
    }

    /// Moves a row from an old path to a new one.
    ///
    /// ```swift
    /// table.moveRow(at: IndexPath(row: 0, section: 0), to: IndexPath(row: 3, section: 0))
    /// ```
    public func moveRow(at indexPath: IndexPath, to newIndexPath: IndexPath) {
        record { $0.movedRows.append(TableBatch.RowMove(from: indexPath, to: newIndexPath)) }
    }

    /// Inserts sections at new indexes.
    ///
    /// ```swift
    /// table.insertSections([1])
    /// ```
    public func insertSections(_ sections: some Sequence<Int>, with animation: RowAnimation = .automatic) {
        record { $0.insertedSections += sections }
    }

    /// Deletes sections at old indexes.
    ///
    /// ```swift
    /// table.deleteSections([0])
    /// ```
    public func deleteSections(_ sections: some Sequence<Int>, with animation: RowAnimation = .automatic) {
        record { $0.deletedSections += sections }
    }

    /// Reloads sections at old indexes.
    ///
    /// ```swift
    /// table.reloadSections([0])
    /// ```
    public func reloadSections(_ sections: some Sequence<Int>, with animation: RowAnimation = .automatic) {
        record { $0.reloadedSections += sections }
    }

    /// Moves a section, rows and all, from an old index to a new one (rule 1.7).
    ///
    /// ```swift
    /// table.moveSection(0, toSection: 2)
    /// ```
    public func moveSection(_ section: Int, toSection newSection: Int) {
        record { $0.movedSections.append(TableBatch.SectionMove(from: section, to: newSection)) }
    }

    /// Inside a batch a change is recorded; outside it is a batch of its own.
    private func record(_ change: (inout TableBatch) -> Void) {
        if batchDepth > 0 {
            change(&pendingBatch)
        } else {
            var batch = TableBatch()
            change(&batch)
            do { try apply(batch) } catch { Self.trap(error) }
        }
    }

    /// Validates a whole batch against the cached counts and the data
    /// source's new counts, then applies it; a refusal changes nothing.
    /// A table that never loaded simply loads.
    ///
    /// ```swift
    /// table.apply(batch)
    /// ```
    ///
    /// - Complexity: O(changes × log changes + sections + visible rows), independent of the row count.
    package func apply(_ batch: TableBatch) throws(TableUpdateError) {
        guard hasLoadedData else { reloadData(); return }
        let newCounts = Self.queryCounts(dataSource, self)
        let plan: BatchPlan
        do {
            plan = try BatchPlan(batch, oldCounts: rowCounts, newCounts: newCounts)
        } catch {
            let context = TableUpdateError.Context(
                tableDescription: tableDescription, countsBefore: rowCounts, countsAfter: newCounts, batch: batch)
            throw TableUpdateError(error.failure, dialect: messageDialect, context: context)
        }
        commit(plan)
    }
}
