import FolioStore
import Foundation

/// Pulls the server's history after the replica's position (other
/// authors' saves only: its own are here already) and the rows it names,
/// both from one snapshot, and applies them in one SQLite transaction with
/// one history row of the replica's own: every container on the file hears
/// the whole pull as one change set. Rows with waiting local saves keep
/// those saves' keys. When the server trimmed history the replica had not
/// pulled, it reads the whole store again (keeping the waiting saves) and
/// every container on the file reloads.
struct ReplicaPull {
    let server: PostgresBackend
    let file: ReplicaFile
    let schema: Schema
    let identity: ReplicaIdentity
    let localAuthor: String

    private var c: PGConnection { server.connection }

    /// What one pull did: the server saves it applied, and whether it read the whole store again.
    struct Outcome {
        var entries = 0
        var reloaded = false
        var position: Int64 = 0
    }

    func pull() throws -> Outcome {
        let from = try file.pulledPosition()
        let deferred = try file.deferredRows()
        var vanished: [RowKey] = []
        var fetched: [String: [Int64: ServerRow]] = [:]
        var joins: [JoinRefresh] = []
        var changes = ChangeSet(origin: .otherProcess)
        var outcome = Outcome(position: from)
        do {
            let read = try readHistory(after: from)
            if read.trimmed {
                try c.execute("COMMIT")
                return try reread()
            }
            outcome.position = max(from, read.rows.last?.position ?? from)
            for row in read.rows where !row.changes.isEmpty {
                changes.merge(row.changes)
                outcome.entries += 1
            }
            if !changes.isEmpty { try readRows(changes, &fetched, &joins) }
            // Rows an earlier pull deferred are read again (those gone from the server are forgotten).
            for (name, rows) in Dictionary(grouping: deferred, by: \.entity) {
                guard let entity = schema.entity(named: name) else { continue }
                let found = try ReplicaRows.read(c, entity, ids: rows.map(\.id))
                for row in found { fetched[name, default: [:]][row.id] = row }
                let ids = Set(found.map(\.id))
                vanished += rows.filter { !ids.contains($0.id) }
            }
            try c.execute("COMMIT")
        } catch {
            if c.isInTransaction { try? c.execute("ROLLBACK") }
            throw error
        }
        guard outcome.position != from || !deferred.isEmpty else { return outcome }
        try file.write {
            for row in vanished {
                try file.connection.run(
                    "DELETE FROM folio_replica_deferred WHERE entity = ? AND id = ?", [.text(row.entity), .integer(row.id)])
            }
            if !changes.isEmpty || !fetched.isEmpty { try apply(changes, fetched, joins) }
            try file.setMetadata("replica_pulled", String(outcome.position))
        }
        return outcome
    }

    /// The history after `from`, in a REPEATABLE READ transaction left open
    /// for the rows it names. Only rows no save still in flight can precede
    /// are read (see PostgresHistory). Every save committed before the pull
    /// began is in it: while rows committed then wait past what can be read
    /// (a save of the namespace still writing, or a transaction of the
    /// snapshot that ended as it was read), the snapshot is taken again, at
    /// growing intervals up to the busy timeout; after that, what still
    /// waits is read again soon. Nothing else pulls them when the app
    /// syncs only when it asks (before, such a pull left them for the next).
    private func readHistory(after from: Int64) throws -> HistoryRead {
        let deadline = DispatchTime.now().uptimeNanoseconds &+ UInt64(max(0, server.busyTimeoutMilliseconds)) * 1_000_000
        var committedBefore: Int64?
        var pause: UInt32 = 0
        while true {
            try c.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            let (read, pending, newest) = try PostgresHistory.readNoting(c, after: from, excludingAuthor: identity.author, store: nil)
            // The newest row committed when the pull began: the first read's.
            let target = committedBefore ?? newest
            committedBefore = target
            guard pending else { return read }
            // Read once more at least, as a row marked the snapshot's xmax passes then.
            let passed = pause > 0 && read.latest >= target
            if passed || DispatchTime.now().uptimeNanoseconds >= deadline {
                PostgresFeedHub.pendingFound(uri: server.server.uri, namespace: server.namespace, horizon: read.latest)
                return read
            }
            try c.execute("COMMIT")
            // A row marked the snapshot's xmax is read once a later transaction ended (the read above was in one).
            PostgresHistory.nudge(c)
            if pause > 0 { usleep(pause) }
            pause = min(max(1_000, pause * 2), 100_000)
        }
    }

    /// The rows `changes` names as the server holds them, and the many-to-many rows of owners whose to-manys changed.
    private func readRows(_ changes: ChangeSet, _ fetched: inout [String: [Int64: ServerRow]], _ joins: inout [JoinRefresh]) throws {
        var changed: [String: [(id: Int64, keys: Set<String>?)]] = [:]
        for id in changes.inserted { changed[id.entityName, default: []].append((id.rowID, nil)) }
        for (id, keys) in changes.updated { changed[id.entityName, default: []].append((id.rowID, keys)) }
        for (name, ids) in changed {
            guard let entity = schema.entity(named: name) else { continue }
            for row in try ReplicaRows.read(c, entity, ids: ids.map(\.id)) { fetched[name, default: [:]][row.id] = row }
            for p in entity.toManys {
                // Owners that are new, or whose to-many changed.
                let owners = ids.filter { $0.keys?.contains(p.name) ?? true }.map(\.id)
                guard !owners.isEmpty else { continue }
                // A many-to-many side to replace: the owners whose rows the server changed, and its rows for them.
                if let join = try JoinRefresh(c, entity, p, owners: owners) {
                    joins.append(join)
                } else if case .inverseColumn(let column, _?) = p.storage {
                    // An ordered to-many's positions live in its members' rows.
                    let r = try c.query(
                        "SELECT id FROM \(quote(p.target.name)) WHERE \(PostgresBackend.isOneOf(quote(column)))",
                        [PostgresBackend.idArray(owners)])
                    let members = (0..<r.rowCount).map { r.int64(row: $0, column: 0) }
                    for row in try ReplicaRows.read(c, p.target, ids: members) { fetched[p.target.name, default: [:]][row.id] = row }
                }
            }
        }
    }

    private func apply(_ changes: ChangeSet, _ fetched: [String: [Int64: ServerRow]], _ joins: [JoinRefresh]) throws {
        let pending = PendingRows(try file.outbox().map(\.entry))
        for (name, ids) in Dictionary(grouping: changes.deleted, by: \.entityName) {
            guard let entity = schema.entity(named: name) else { continue }
            try file.delete(entity, ids: ids.map(\.rowID))
        }
        // Parents before children is not needed: the foreign keys are checked at commit.
        var told = changes
        for (name, rows) in fetched {
            guard let entity = schema.entity(named: name) else { continue }
            let kept = rows.values.filter { !pending.isDeleted(RowKey(name, $0.id)) }.sorted { $0.id < $1.id }
            ReplicaTrace.note(
                "pull \(name) \(kept.map { ReplicaTrace.describe($0, ReplicaRows.columns(of: entity)) }) keep \(pending.keys(of: name).filter { !$0.value.isEmpty })"
            )
            let (inserted, deferred) = try file.upsert(entity, kept, keep: pending.keys(of: name))
            // New here (a deferred row among them), whatever the server's history called them.
            for id in inserted.map({ ObjectID(entityName: name, rowID: $0) }) {
                told.updated[id] = nil
                told.inserted.insert(id)
            }
            for id in deferred.map({ ObjectID(entityName: name, rowID: $0) }) {
                told.inserted.remove(id)
                told.updated[id] = nil
            }
        }
        for join in joins {
            let owners = join.owners.filter { !pending.changes(join.entity, $0, join.property) }
            let mine = Set(owners)
            guard let entity = schema.entity(named: join.entity), let p = entity.byName[join.property] else { continue }
            try file.replaceJoin(
                join.table, side: join.side, owners: owners,
                with: join.rows.filter { row in
                    let (owner, member) = join.ends(of: row)
                    return mine.contains(owner) && !pending.isDeleted(RowKey(p.target.name, member))
                })
        }
        // The server's rows replaced the waiting saves' links of those owners: they go on top again.
        if !joins.isEmpty { try pending.replayLinks(schema, into: file) }
        // Waiting local saves that refer to rows gone here (deleted on the server, or deleted by a waiting save itself)
        // follow their delete rules, as the push will on the server.
        let gone = changes.deleted.union(pending.deleted.map { ObjectID(entityName: $0.entity, rowID: $0.id) })
        told = told.merged(with: try file.settleDangling(schema, deleted: gone))
        told.origin = .otherProcess
        try file.writeHistory(told, author: localAuthor)
    }

    /// Reads the whole store again, keeping the waiting local saves on top,
    /// and trims the replica's own history through the new row, so every
    /// container on the file reloads (nothing finer is known).
    private func reread() throws -> Outcome {
        var outcome = Outcome(reloaded: true)
        try file.write {
            let pending = PendingRows(try file.outbox().map(\.entry))
            outcome.position = try ReplicaSnapshot.copy(from: c, schema: schema, into: file, keep: pending)
            try pending.replayLinks(schema, into: file)
            try file.connection.run("INSERT INTO folio_history (author, changes) VALUES (?, '')", [.text(localAuthor)])
            guard case .integer(let mark)? = try file.connection.rows("SELECT max(position) FROM folio_history").first?.first else {
                return
            }
            // The waiting saves stay: the outbox is their history rows.
            try file.connection.run("DELETE FROM folio_history WHERE position <= ? AND outbox IS NULL", [.integer(mark)])
            try file.setMetadata("history_trimmed_through", String(mark))
            try file.setMetadata("replica_pulled", String(outcome.position))
        }
        return outcome
    }
}
