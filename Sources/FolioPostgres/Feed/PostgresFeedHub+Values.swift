import Dispatch
import FolioStore

// A process reads each saved row once for all its containers: after the
// hub reads new history, it reads the rows those changes name, one
// statement per entity, and hands them on with the changes (``HeardRows``).
// Read after the history, each row is as the server held it at its
// change's position or later; a row gone is handed on as gone.

extension PostgresFeedHub {
    /// A read naming more objects than this hands on no rows: each
    /// container reads those it shows (a batch save of more is rare, and
    /// its rows would take more memory than they save reads). Well above
    /// what a burst of single saves names: a hub read that falls behind
    /// names thousands, and were their rows not handed on, every container
    /// would read them all, and fall further behind.
    static let heardRowLimit = 50_000

    /// Lets the hub read the rows its changes name, as `schema` describes them (the first schema given stays).
    func readsRows(of schema: Schema) {
        state.withLock { s in
            if s.schema == nil { s.schema = schema }
        }
    }

    /// The stored rows the changes of `rows` name, read now; nil when no
    /// container gave a schema, when they are too many, or when the read failed.
    func readRows(namedBy rows: [(position: Int64, author: String, changes: ChangeSet)]) -> HeardRows? {
        guard !rows.isEmpty, let schema = state.withLock({ $0.schema }) else { return nil }
        var heard = HeardRows(readStart: DispatchTime.now().uptimeNanoseconds)
        var wanted: [String: Set<Int64>] = [:]
        var named = 0
        for row in rows {
            named += row.changes.inserted.count + row.changes.updated.count + row.changes.deleted.count
            guard named <= Self.heardRowLimit else { return nil }
            for id in row.changes.inserted { wanted[id.entityName, default: []].insert(id.rowID) }
            for id in row.changes.updated.keys { wanted[id.entityName, default: []].insert(id.rowID) }
        }
        // A deleted row is gone for good (IDs are not used again): nothing to read.
        for row in rows {
            for id in row.changes.deleted {
                wanted[id.entityName]?.remove(id.rowID)
                heard.set(id, nil)
            }
        }
        do {
            try using { c in
                for (name, ids) in wanted where !ids.isEmpty {
                    guard let entity = schema.entity(named: name) else { continue }
                    heard.describe(entity)
                    let r = try c.query(
                        "SELECT \(PostgresBackend.rowColumns(entity)) FROM \(quote(entity.name)) t0 WHERE \(PostgresBackend.isOneOf("t0.id"))",
                        [PostgresBackend.idArray(Array(ids))])
                    PostgresBackend.countRowRead(key.uri)
                    var found: [Int64: StoredRow] = [:]
                    for i in 0..<r.rowCount { found[r.int64(row: i, column: 0)] = PostgresBackend.readRow(r, i, entity) }
                    for id in ids { heard.set(ObjectID(entityName: name, rowID: id), found[id]) }
                }
            }
        } catch {
            return nil
        }
        return heard
    }

    /// The rows heard for what `rows` change, for a reader that is handed
    /// `served` of them: each object's row from the latest read that named
    /// it (a later change whose rows were not read, or were read before
    /// this process's last save, leaves it unknown), kept to the objects the
    /// served changes name.
    static func heard(in rows: ArraySlice<Window.Row>, served: Set<ObjectID>, ownSaves: UInt64) -> HeardRows? {
        guard !served.isEmpty else { return nil }
        var heard = HeardRows()
        for row in rows { heard.note(row.changes, values: row.valuesAfter == ownSaves ? row.values : nil) }
        heard.keep(served)
        return heard.isEmpty ? nil : heard
    }
}
