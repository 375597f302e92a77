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
    /// - Complexity: O(n log n): with nothing stored, each value hashed once
    ///   and the hashes sorted; else one dictionary entry a value.
    package static func refuseRepeats(
        _ records: [ImportRecord], field: String, kind: String,
        existing: Set<String>, key: (Int) -> String
    ) throws {
        func repeated(_ first: Int, _ again: Int) -> ImportError {
            ImportError(
                line: records[again].line, field: field,
                reason: "'\(AppError.shown(key(again)))' is on line \(records[first].line) too, and must be unique")
        }
        if existing.isEmpty {
            if let (first, again) = firstRepeat(records.count, key) { throw repeated(first, again) }
            return
        }
        var seen: [String: Int] = [:]
        seen.reserveCapacity(records.count)
        for index in records.indices {
            let value = key(index)
            if existing.contains(value) {
                throw ImportError(
                    line: records[index].line, field: field,
                    reason: "a \(kind) named '\(AppError.shown(value))' is already in the store")
            }
            // One lookup that also inserts: a value seen before hands back its first row.
            if let first = seen.updateValue(index, forKey: value) { throw repeated(first, index) }
        }
    }

    /// The first of `count` values (in order) whose bytes an earlier one
    /// has, as a unique index compares them, with that earlier one. Each
    /// value is hashed once and the hashes sorted: a million-entry table
    /// costs three times as much, in cache misses. Only values whose
    /// hashes meet are compared.
    nonisolated static func firstRepeat(_ count: Int, _ key: (Int) -> String) -> (first: Int, again: Int)? {
        var hashes = [UInt64](repeating: 0, count: count)
        for i in 0..<count { hashes[i] = fnv1a(key(i)) }
        let sorted = hashes.sorted()
        guard zip(sorted, sorted.dropFirst()).contains(where: { $0 == $1 }) else { return nil }
        // Some hashes meet: rows in order of hash then row, each run of one hash compared in full.
        let order = (0..<count).sorted { hashes[$0] != hashes[$1] ? hashes[$0] < hashes[$1] : $0 < $1 }
        var found: (first: Int, again: Int)?
        var start = 0
        while start < count {
            var end = start + 1
            while end < count, hashes[order[end]] == hashes[order[start]] { end += 1 }
            for j in start + 1..<end where order[j] < found?.again ?? count {
                if let k = (start..<j).first(where: { key(order[$0]).utf8.elementsEqual(key(order[j]).utf8) }) {
                    found = (order[k], order[j])
                }
            }
            start = end
        }
        return found
    }

    nonisolated private static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return hash
    }
}
