import FolioLocking
import FolioStore

/// What a replica's saves write beside their rows, in the same SQLite
/// transaction: the save as an outbox entry, with the server version each
/// row it changes was last seen at here, kept in the save's history row
/// (which a save writes anyway, so the entry costs no page of its own).
/// New objects get IDs in the replica's own range.
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

    func record(_ batch: SaveBatch, permanent: [ObjectID], history: String, on connection: SQLiteConnection) throws -> String? {
        var entry = try OutboxEntry(batch, permanent: permanent, history: history) { entity, id, keys in
            try before(entity, id, keys, on: connection)
        }
        for i in entry.deletes.indices { entry.deletes[i].seen = try seen(entry.deletes[i].entity, entry.deletes[i].id, connection) }
        ReplicaTrace.note("save \(ReplicaTrace.describe(entry))")
        return entry.encoded()
    }

    func record(_ write: BatchWrite, _ outcome: BatchOutcome, before: [Int64: [StoreValue]], on connection: SQLiteConnection) throws
        -> String?
    {
        guard !outcome.history.isEmpty else { return nil }
        var entry = try OutboxEntry(write, outcome, before: before) { entity, id, keys in
            try connection.rows("SELECT \(keys.map(quote).joined(separator: ", ")) FROM \(quote(entity.name)) WHERE id = ?", [.integer(id)])
                .first
        }
        for i in entry.updates.indices { entry.updates[i].seen = try seen(entry.updates[i].entity, entry.updates[i].id, connection) }
        for i in entry.deletes.indices { entry.deletes[i].seen = try seen(entry.deletes[i].entity, entry.deletes[i].id, connection) }
        ReplicaTrace.note("save \(ReplicaTrace.describe(entry))")
        return entry.encoded()
    }

    /// A row's values of `keys` and its server version last seen here, in
    /// one statement on the row's own page (its column, which the sync
    /// keeps equal to the row's record): a save's update pays one read for
    /// what its entry keeps of the row. A row not here has nulls (its update
    /// then misses, and the save rolls back).
    private func before(
        _ entity: EntityDescription, _ id: Int64, _ keys: [String], on connection: SQLiteConnection
    ) throws -> (values: [StoreValue], seen: Int64) {
        let statement = try connection.prepare(
            "SELECT \((keys.map(quote) + [ReplicaFile.serverVersionColumn]).joined(separator: ", ")) FROM \(quote(entity.name)) WHERE id = ?"
        )
        defer { statement.reset() }
        try statement.bind(.integer(id), at: 1)
        guard try statement.step() else {
            return (Array(repeating: .null, count: keys.count), try seen(entity.name, id, connection))
        }
        var values: [StoreValue] = []
        values.reserveCapacity(keys.count)
        for i in keys.indices { values.append(statement.value(at: i)) }
        return (values, statement.int64(at: keys.count))
    }

    private func seen(_ entity: String, _ id: Int64, _ connection: SQLiteConnection) throws -> Int64 {
        try ReplicaFile.seenVersion(of: entity, id, on: connection)
    }
}
