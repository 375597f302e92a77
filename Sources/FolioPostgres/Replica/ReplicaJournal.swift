import FolioLocking
import FolioStore

/// What a replica's saves write beside their rows, in the same SQLite
/// transaction: the save as an outbox entry, and for each row it writes one
/// more waiting save (the first of them records the server version it was
/// made on). New objects get IDs in the replica's own range.
final class ReplicaJournal: SaveJournal {
    let identity: ReplicaIdentity
    /// Boxed: a closure kept as a lock's own value gains a reabstraction
    /// thunk at each `withLock`, so every save would call through one more
    /// layer (slower each time, then a stack overflow).
    private struct Handler {
        let run: @Sendable () -> Void
    }
    private let wake = LockedValue<Handler?>(nil)

    init(identity: ReplicaIdentity) { self.identity = identity }

    var rowIDs: Range<Int64> { identity.rowIDs }

    /// `handler` runs (on the saving thread) after each save commits.
    func onCommit(_ handler: (@Sendable () -> Void)?) { wake.withLock { $0 = handler.map(Handler.init) } }

    func didCommit() { wake.withLock { $0 }?.run() }

    func record(_ batch: SaveBatch, permanent: [ObjectID], history: String, on connection: SQLiteConnection) throws {
        let entry = try OutboxEntry(batch, permanent: permanent, history: history) { entity, id, keys in
            let columns = keys.map(quote).joined(separator: ", ")
            return try connection.rows("SELECT \(columns) FROM \(quote(entity.name)) WHERE id = ?", [.integer(id)]).first
                ?? Array(repeating: .null, count: keys.count)
        }
        try write(entry, on: connection)
    }

    func record(_ write: BatchWrite, _ outcome: BatchOutcome, before: [Int64: [StoreValue]], on connection: SQLiteConnection) throws {
        guard !outcome.history.isEmpty else { return }
        let entry = try OutboxEntry(write, outcome, before: before) { entity, id, keys in
            try connection.rows("SELECT \(keys.map(quote).joined(separator: ", ")) FROM \(quote(entity.name)) WHERE id = ?", [.integer(id)])
                .first
        }
        try self.write(entry, on: connection)
    }

    /// The entry, and one more waiting save for each row it writes.
    private func write(_ entry: OutboxEntry, on connection: SQLiteConnection) throws {
        try connection.run("INSERT INTO folio_outbox (entry) VALUES (?)", [.text(entry.encoded())])
        for insert in entry.inserts {
            try connection.run(
                "INSERT OR REPLACE INTO folio_replica_rows (entity, id, version, pending, base) VALUES (?, ?, 0, 1, 0)",
                [.text(insert.entity), .integer(insert.id)])
        }
        for row in entry.updates.map({ RowKey($0.entity, $0.id) }) + entry.deletes.map({ RowKey($0.entity, $0.id) }) {
            // The first waiting save of a row is made on the version last seen here; later ones on what it leaves.
            try connection.run(
                """
                UPDATE folio_replica_rows SET base = CASE WHEN pending = 0 THEN version ELSE base END, pending = pending + 1
                WHERE entity = ? AND id = ?
                """, [.text(row.entity), .integer(row.id)])
        }
    }
}
