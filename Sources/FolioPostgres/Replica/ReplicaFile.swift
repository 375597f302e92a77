import FolioStore
import Foundation

/// What a replica keeps in its SQLite file beside the store's own tables:
///
/// - the outbox: each local save the server does not have yet, in commit
///   order, kept in the `outbox` column of the save's own history row (so a
///   save writes no page for it) and cleared once pushed; its position is
///   the entry's number, which the server records as pushed
///   (`replica_outbox_from` in `folio_metadata`: every waiting entry lies past it);
/// - `folio_replica_rows`: for each row the server has, its server version
///   as last seen here (each outbox entry keeps it for the rows it changes;
///   triggers copy it into the row's `folio_server_version`, where a save
///   reads it, but for what a push records of its own write, which `base` covers)
///   and the version the replica's last push of it left (`base`); a push
///   checks a waiting save against the larger, as a save checks its row
///   versions (`pending` counts the waiting saves of entries from before
///   they kept versions, whose saves wrote `base` themselves);
/// - `folio_replica_deferred`: server rows a pull could not write here yet,
///   because a waiting local save holds a unique value they hold (every
///   pull tries them again, until the local save is changed and pushed);
/// - in `folio_metadata`: the server (`replica_of`), the replica's number
///   and author, the schema version it was made with, and the history
///   position it has pulled through.
struct ReplicaFile {
    let connection: SQLiteConnection
    /// The sync's file only: its commits leave checkpoints to a queue of their own, as a save's do.
    private var checkpoints: Checkpoints?

    /// Detaches the checkpointer before its connection goes (the last copy of the file takes it along).
    private final class Checkpoints {
        let checkpointer: WALCheckpointer
        let connection: SQLiteConnection

        init(_ connection: SQLiteConnection, busyTimeoutMilliseconds: Int32) throws {
            checkpointer = try WALCheckpointer.attached(to: connection, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
            self.connection = connection
        }

        deinit { checkpointer.close(connection) }
    }

    static let tablesSQL = """
        CREATE TABLE IF NOT EXISTS folio_replica_rows (
          entity TEXT NOT NULL, id INTEGER NOT NULL, version INTEGER NOT NULL,
          pending INTEGER NOT NULL DEFAULT 0, base INTEGER NOT NULL DEFAULT 0,
          PRIMARY KEY (entity, id)) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS folio_replica_deferred (entity TEXT NOT NULL, id INTEGER NOT NULL, PRIMARY KEY (entity, id)) WITHOUT ROWID;
        """

    /// Opens the file for the replica's own writes (foreign keys on, as every store connection).
    /// The sync's file (`checkpointing`) runs no checkpoint inside its commits: SQLite's own,
    /// past 1,000 pages of log, would copy and sync the file in the middle of a push or pull.
    static func open(_ path: String, busyTimeoutMilliseconds: Int32, checkpointing: Bool = false) throws -> ReplicaFile {
        let connection = try SQLiteConnection(path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        try connection.execute("PRAGMA foreign_keys=ON; PRAGMA synchronous=NORMAL")
        var file = ReplicaFile(connection: connection)
        if checkpointing { file.checkpoints = try Checkpoints(connection, busyTimeoutMilliseconds: busyTimeoutMilliseconds) }
        return file
    }

    func metadata(_ key: String) throws -> String? {
        if case .text(let value)? = try connection.rows("SELECT value FROM folio_metadata WHERE key = ?", [.text(key)]).first?.first {
            return value
        }
        return nil
    }

    func setMetadata(_ key: String, _ value: String) throws {
        try connection.run("INSERT OR REPLACE INTO folio_metadata (key, value) VALUES (?, ?)", [.text(key), .text(value)])
    }

    /// The replica's identity, nil before its first sync.
    func identity() throws -> ReplicaIdentity? {
        guard let server = try metadata("replica_of"), let number = try metadata("replica_number").flatMap({ Int64($0) }),
            let author = try metadata("replica_author"), let version = try metadata("replica_schema_version").flatMap({ Int($0) })
        else { return nil }
        return ReplicaIdentity(server: server, number: number, author: author, schemaVersion: version)
    }

    /// The server history position this replica has pulled through.
    func pulledPosition() throws -> Int64 { try metadata("replica_pulled").flatMap { Int64($0) } ?? 0 }

    /// Runs `body` in one write transaction (waiting for other writers up to the busy timeout).
    func write<T>(_ body: () throws -> T) throws -> T {
        try connection.withDeadline(connection.deadlineFromNow) { try connection.execute("BEGIN IMMEDIATE") }
        do {
            let result = try body()
            try connection.execute("COMMIT")
            return result
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }

    /// The saves waiting for the server (after `seq`), oldest first.
    func outbox(after seq: Int64 = 0, limit: Int = .max) throws -> [(seq: Int64, entry: OutboxEntry)] {
        try connection.rows(
            "SELECT position, outbox FROM folio_history WHERE position > ? AND outbox IS NOT NULL ORDER BY position LIMIT ?",
            [.integer(max(seq, try outboxFrom())), .integer(Int64(min(limit, Int(Int64.max))))]
        )
        .compactMap { row in
            guard case .integer(let seq) = row[0], case .text(let text) = row[1] else { return nil }
            return (seq, try OutboxEntry.decode(text))
        }
    }

    func waitingCount() throws -> Int {
        if case .integer(let n)? = try connection.rows(
            "SELECT count(*) FROM folio_history WHERE position > ? AND outbox IS NOT NULL", [.integer(try outboxFrom())]
        ).first?.first {
            return Int(n)
        }
        return 0
    }

    /// The number of the oldest waiting save, nil when none waits.
    func oldestWaiting() throws -> Int64? {
        if case .integer(let seq)? = try connection.rows(
            "SELECT min(position) FROM folio_history WHERE position > ? AND outbox IS NOT NULL", [.integer(try outboxFrom())]
        ).first?.first {
            return seq
        }
        return nil
    }

    /// Every entry through this number was pushed (entries go oldest first), so the outbox is read past it.
    private func outboxFrom() throws -> Int64 { try metadata("replica_outbox_from").flatMap { Int64($0) } ?? 0 }

    /// The entries `first...last` (the oldest waiting ones) reached the server: they leave the outbox, inside the caller's transaction.
    func removePushed(_ first: Int64, through last: Int64) throws {
        try connection.run(
            "UPDATE folio_history SET outbox = NULL WHERE position >= ? AND position <= ? AND outbox IS NOT NULL",
            [.integer(first), .integer(last)])
        // Rows the history's trimming passed over while they waited go now (their entry cleared first: a row
        // whose entry waits is never deleted); the others wait for it.
        let trimmed = try metadata("history_trimmed_through").flatMap { Int64($0) } ?? 0
        if first <= trimmed {
            try connection.run(
                "DELETE FROM folio_history WHERE position >= ? AND position <= ?", [.integer(first), .integer(min(last, trimmed))])
        }
        if last > (try outboxFrom()) { try setMetadata("replica_outbox_from", String(last)) }
    }

    /// The server rows a pull could not write yet (see ``upsert(_:_:keep:)``).
    func deferredRows() throws -> [RowKey] {
        try connection.rows("SELECT entity, id FROM folio_replica_deferred").compactMap { row in
            guard case .text(let entity) = row[0], case .integer(let id) = row[1] else { return nil }
            return RowKey(entity, id)
        }
    }

    /// The server version a waiting save of `row` was made on (0: the row is
    /// new here), from the version it `seen` here when it was made: a save
    /// made while an earlier one of the row waited is made on what that one
    /// leaves, which its push wrote as `base`. Server versions only grow, so
    /// the larger of the two is the one: `base` is newer than anything seen
    /// before that push, and older than anything seen after it. An entry from
    /// before entries kept `seen` (nil) has its `base` as those saves wrote it.
    func base(of row: RowKey, seen: Int64?) throws -> Int64 {
        let base = try Self.rowVersion("base", of: row.entity, row.id, on: connection)
        guard let seen else { return base }
        return max(seen, base)
    }

    /// The server version last seen here of a row (0: the server has not had it yet), read on a save's `connection`:
    /// from the row's own page when it is here, else from its record.
    static func seenVersion(of entity: String, _ id: Int64, on connection: SQLiteConnection) throws -> Int64 {
        let statement = try connection.prepare("SELECT \(serverVersionColumn) FROM \(quote(entity)) WHERE id = ?")
        defer { statement.reset() }
        try statement.bind(.integer(id), at: 1)
        if try statement.step() { return statement.int64(at: 0) }
        return try rowVersion("version", of: entity, id, on: connection)
    }

    /// One version `column` of a row's record here (0: no record).
    private static func rowVersion(_ column: String, of entity: String, _ id: Int64, on connection: SQLiteConnection) throws -> Int64 {
        let statement = try connection.prepare("SELECT \(column) FROM folio_replica_rows WHERE entity = ? AND id = ?")
        try statement.bind(.text(entity), at: 1)
        try statement.bind(.integer(id), at: 2)
        let version = try statement.step() ? statement.int64(at: 0) : 0
        statement.reset()
        return version
    }
}

/// Who a replica is: fixed at its first sync.
struct ReplicaIdentity: Sendable {
    /// The server as messages name it.
    var server: String
    var number: Int64
    /// The author of its saves in the server's history.
    var author: String
    var schemaVersion: Int

    var rowIDs: Range<Int64> { ReplicaIDs.range(of: number) }
}
