import CSQLite
import Foundation

extension SQLiteBackend {
    /// Writes one save as a single transaction: allocates permanent IDs,
    /// deletes, inserts, updates, relationship rows, positions, and the
    /// history entry other processes read. On any failure nothing is written.
    /// Inside a write transaction it is a savepoint of that transaction.
    func commit(_ batch: SaveBatch, author: String) throws -> [ObjectID] {
        // Inside performWrite a savepoint; after beginWriting(until:) the lock is already held.
        if inWriteTransaction {
            try connection.execute("SAVEPOINT folio_save")
        } else if !connection.isInTransaction {
            try connection.execute("BEGIN IMMEDIATE")
        }
        do {
            let permanent = try allocateIDs(batch)
            let history = batch.changes.historyText(inserted: permanent)
            // A replica records the save beside it, reading the rows as they were before its writes.
            let outbox = try journal?.record(batch, permanent: permanent, history: history, on: connection)
            // Temporary → permanent, needed only where something refers to a new object.
            var map: [ObjectID: ObjectID] = [:]
            if batch.refersToNewObjects {
                map.reserveCapacity(permanent.count)
                for (insert, id) in zip(batch.inserts, permanent) { map[insert.id] = id }
            }
            func row(_ id: ObjectID) -> StoreValue { .integer(id.isTemporary ? map[id]?.rowID ?? id.rowID : id.rowID) }
            func ref(_ id: ObjectID?) -> StoreValue { id.map(row) ?? .null }

            // Big saves get a page cache for their working set; the default comes back after.
            let writes = batch.deletes.count + batch.inserts.count + batch.updates.count
            if writes >= Self.bigSaveWrites { try connection.execute("PRAGMA cache_size = \(Self.bigSaveCacheSize(writes))") }
            defer { if writes >= Self.bigSaveWrites { try? connection.execute("PRAGMA cache_size = \(Self.defaultCacheSize)") } }
            // In row ID order per table, so that SQLite walks each b-tree once instead of jumping about.
            // A write that matches no row at its version: changed or deleted by another save since it was read.
            var misses: [VersionMiss] = []
            for d in batch.deletes.sorted(by: { ($0.entity.name, $0.id.rowID) < ($1.entity.name, $1.id.rowID) }) {
                try connection.run(
                    "DELETE FROM \(quote(d.entity.name)) WHERE id = ? AND \(RowVersion.column) = ?", [row(d.id), .integer(d.version)])
                if connection.changes == 0 { misses.append(VersionMiss(entity: d.entity, id: d.id, deleting: true)) }
            }
            var insertStatements: [String: SQLiteStatement] = [:]
            for (index, insert) in batch.inserts.enumerated() {
                let e = insert.entity
                let s: SQLiteStatement
                if let cached = insertStatements[e.name] {
                    s = cached; s.reset()
                } else {
                    let names = ["id"] + (e.attributes + e.toOnes).map { quote($0.name) }
                    let marks = Array(repeating: "?", count: names.count).joined(separator: ", ")
                    s = try connection.prepare("INSERT INTO \(quote(e.name)) (\(names.joined(separator: ", "))) VALUES (\(marks))")
                    insertStatements[e.name] = s
                }
                try s.bind(.integer(permanent[index].rowID), at: 1)
                var i: Int32 = 2
                for v in insert.attrs { try s.bind(v, at: i); i += 1 }
                for o in insert.ones { try s.bind(ref(o), at: i); i += 1 }
                try step(s, entity: e, values: insert.attrs)
            }
            var updateStatements: [UpdateShape: SQLiteStatement] = [:]
            var previous: (index: Int, statement: SQLiteStatement)?
            // Read in place: copying an update would retain its entity, ID and arrays.
            try batch.updates.withUnsafeBufferPointer { updates in
                for index in sortedUpdates(batch.updates) {
                    let update = updates.baseAddress! + index
                    let e = update.pointee.entity
                    let s: SQLiteStatement
                    // Most of a big save's updates set the same columns as the one before: no shape to build or hash.
                    if let previous, UpdateShape.same(updates.baseAddress! + previous.index, update) {
                        s = previous.statement; s.reset()
                    } else if let cached = updateStatements[UpdateShape(update.pointee)] {
                        s = cached; s.reset()
                    } else {
                        let sets = (update.pointee.attrs.map(\.0.name) + update.pointee.ones.map(\.0.name)).map { "\(quote($0)) = ?" }
                        let bump = "\(RowVersion.column) = \(RowVersion.column) + 1"
                        s = try connection.prepare(
                            "UPDATE \(quote(e.name)) SET \((sets + [bump]).joined(separator: ", ")) WHERE id = ? AND \(RowVersion.column) = ?"
                        )
                        updateStatements[UpdateShape(update.pointee)] = s
                    }
                    previous = (index, s)
                    var i: Int32 = 1
                    for (_, v) in update.pointee.attrs { try s.bind(v, at: i); i += 1 }
                    for (_, o) in update.pointee.ones { try s.bind(ref(o), at: i); i += 1 }
                    try s.bind(row(update.pointee.id), at: i)
                    try s.bind(.integer(update.pointee.version), at: i + 1)
                    try step(s, entity: e, values: update.pointee.attrs.map(\.1), keys: update.pointee.attrs.map(\.0.name))
                    if connection.changes == 0 { misses.append(VersionMiss(entity: e, id: update.pointee.id, deleting: false)) }
                }
            }
            try throwIfStale(misses)
            for m in batch.joinRemoves {
                guard case .joinTable(let table, let mine, let other, _) = m.property.storage else { continue }
                try connection.run("DELETE FROM \(quote(table)) WHERE \(mine) = ? AND \(other) = ?", [row(m.owner), row(m.member)])
            }
            for m in batch.joinAdds {
                guard case .joinTable(let table, let mine, let other, _) = m.property.storage else { continue }
                try connection.run(
                    "INSERT OR IGNORE INTO \(quote(table)) (\(mine), \(other)) VALUES (?, ?)", [row(m.owner), row(m.member)])
            }
            for o in batch.orders {
                for (sql, values) in dialect.positionWrites(o, row: row) { try connection.run(sql, values) }
            }
            if !history.isEmpty || outbox != nil { try writeHistory(author: author, changes: history, outbox: outbox) }
            try connection.execute(inWriteTransaction ? "RELEASE folio_save" : "COMMIT")
            if !inWriteTransaction { journal?.didCommit() }
            return permanent
        } catch {
            try? connection.execute(inWriteTransaction ? "ROLLBACK TO folio_save; RELEASE folio_save" : "ROLLBACK")
            // The deferred foreign keys refused the commit: say which relationship, and why.
            if case StoreError.sqlite(SQLITE_CONSTRAINT | (3 << 8), _, _) = error,  // SQLITE_CONSTRAINT_FOREIGNKEY
                let clear = try? danglingReferenceError(batch)
            {
                throw clear
            }
            throw error
        }
    }

    /// Steps an insert or update, turning a UNIQUE failure into a constraint
    /// violation naming the key (every column of a unique-together group) and its value.
    func step(
        _ s: SQLiteStatement, entity: EntityDescription, values: @autoclosure () -> [StoreValue],
        keys: @autoclosure () -> [String]? = nil
    ) throws {
        do { while try s.step() {} } catch StoreError.sqlite(let code, let message, _) where code & 0xff == SQLITE_CONSTRAINT {
            // "UNIQUE constraint failed: Shelf.aisle, Shelf.bay" → "aisle, bay" and their values.
            let failed = (message.components(separatedBy: ": ").last ?? message).components(separatedBy: ", ")
            let columns = failed.map { $0.components(separatedBy: ".").last ?? $0 }
            let names = keys() ?? entity.attributes.map(\.name)
            let row = values()
            let shown = columns.map { column in names.firstIndex(of: column).map { row[$0].description } ?? "?" }
            throw StoreError.constraintViolation(
                entity: entity.name, key: columns.joined(separator: ", "), value: shown.joined(separator: ", "))
        }
    }

    /// Reserves consecutive permanent row IDs per entity, inside the save's
    /// transaction: past both `folio_sequence` (so a deleted object's ID never
    /// comes back) and the largest ID in the table (so a row another SQLite
    /// client inserted never collides). Returns them in the order of the inserts.
    private func allocateIDs(_ batch: SaveBatch) throws -> [ObjectID] {
        var next: [String: Int64] = [:]
        var result: [ObjectID] = []
        result.reserveCapacity(batch.inserts.count)
        for insert in batch.inserts {
            let name = insert.entity.name
            let n = try next[name] ?? firstFreeID(name)
            guard n < (journal?.rowIDs.upperBound ?? Int64.max) else {
                throw StoreError.constraintViolation(entity: name, key: "id", value: "\(n), the largest possible")
            }
            result.append(ObjectID(entityName: name, rowID: n))
            next[name] = n + 1
        }
        for (name, n) in next {
            try connection.run("INSERT OR REPLACE INTO folio_sequence (entity, next) VALUES (?, ?)", [.text(name), .integer(n)])
        }
        return result
    }

    /// The smallest ID above every one the sequence handed out and every one in
    /// the table (the table's largest rowid is one b-tree descent away).
    func firstFreeID(_ entity: String) throws -> Int64 {
        if let range = journal?.rowIDs { return try firstFreeID(entity, in: range) }
        var n: Int64 = 1
        if case .integer(let stored)? = try connection.rows("SELECT next FROM folio_sequence WHERE entity = ?", [.text(entity)]).first?
            .first
        {
            n = stored
        }
        if case .integer(let largest)? = try connection.rows("SELECT max(id) FROM \(quote(entity))").first?.first {
            n = max(n, largest == Int64.max ? largest : largest + 1)
        }
        return n
    }

    /// As above, within a replica's own `range`: rows pulled from the server
    /// lie outside it, and only this replica's saves write inside it.
    private func firstFreeID(_ entity: String, in range: Range<Int64>) throws -> Int64 {
        var n = range.lowerBound
        if case .integer(let stored)? = try connection.rows("SELECT next FROM folio_sequence WHERE entity = ?", [.text(entity)]).first?
            .first
        {
            n = max(n, stored)
        }
        if case .integer(let largest)? = try connection.rows(
            "SELECT max(id) FROM \(quote(entity)) WHERE id >= ? AND id < ?",
            [.integer(range.lowerBound), .integer(range.upperBound)]
        ).first?.first {
            n = max(n, largest + 1)
        }
        guard n < range.upperBound else {
            throw StoreError.constraintViolation(entity: entity, key: "id", value: "\(n), past the replica's last ID")
        }
        return n
    }
}
