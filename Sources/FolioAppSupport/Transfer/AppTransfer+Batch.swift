import FolioStore
import Foundation

extension AppTransfer {
    /// Checks every record with `check` (in file order, advancing
    /// `progress`; the first bad one stops the import, named by its line).
    ///
    /// ```swift
    /// let rows = try AppTransfer.checked(records, progress: progress) { record in try record.text("name") }
    /// ```
    package static func checked<Row>(
        _ records: [ImportRecord], progress: ImportProgress,
        _ check: (ImportRecord) throws -> Row
    ) throws -> [Row] {
        var rows: [Row] = []
        rows.reserveCapacity(records.count)
        for (index, record) in records.enumerated() {
            rows.append(try record.checking { try check(record) })
            progress.advance(to: index + 1)
        }
        return rows
    }

    /// Inserts `rows` with one batch insert request (one transaction: all or
    /// nothing), `fill` setting each object's values. Store errors come back
    /// in the app's terms.
    ///
    /// ```swift
    /// try AppTransfer.batchInsert(rows, into: context, at: url, progress: progress) { row, values in values[\.name] = row }
    /// ```
    package static func batchInsert<Entity: ManagedObject, Row>(
        _ rows: [Row], into context: ObjectContext, at url: URL, progress: ImportProgress,
        fill: @escaping (Row, inout BatchInsertValues<Entity>) -> Void
    ) throws -> Int {
        guard !rows.isEmpty else { return 0 }
        progress.writing()
        var next = 0
        var request = BatchInsertRequest<Entity>(
            expecting: rows.count,
            handler: { values in
                guard next < rows.count else { return true }
                fill(rows[next], &values)
                next += 1
                return false
            })
        request.resultType = .count
        do {
            return try context.execute(request).count
        } catch let error as StoreError {
            throw AppError.store(error, at: url)
        }
    }

    /// Runs `changes` in one write transaction and saves them (all or
    /// nothing), for imports that make related objects too.
    package static func transaction(
        _ context: ObjectContext, at url: URL, progress: ImportProgress,
        _ changes: () throws -> Void
    ) throws {
        progress.writing()
        try AppStore.save(context, at: url, changes)
    }

    /// Refuses a value given to two rows where it must be unique, naming the second row's line.
    ///
    /// - Complexity: O(n), one hash of each value (two when `existing` is not empty).
    /// Not generic: a dictionary of strings, specialised here, costs a third of one that is not.
    package static func refuseRepeats(
        _ records: [ImportRecord], field: String, kind: String,
        existing: Set<String>, key: (Int) -> String
    ) throws {
        var seen: [String: Int] = [:]
        seen.reserveCapacity(records.count)
        for index in records.indices {
            let value = key(index)
            if !existing.isEmpty, existing.contains(value) {
                throw ImportError(
                    line: records[index].line, field: field,
                    reason: "a \(kind) named '\(AppError.shown(value))' is already in the store")
            }
            // One lookup that also inserts: a value seen before hands back its first row.
            if let first = seen.updateValue(index, forKey: value) {
                throw ImportError(
                    line: records[index].line, field: field,
                    reason: "'\(AppError.shown(value))' is on line \(records[first].line) too, and must be unique")
            }
        }
    }
}
