import FolioStore
import Foundation

/// The history SQL on a feed's connection: rows after a position, readers'
/// positions, trimming.
///
/// A row's position is its *mark*, a transaction ID bound (see ``markSQL``),
/// written with no lock, so rows commit out of mark order. A reader reads
/// only rows at or below the *horizon*, the oldest transaction still
/// running (`pg_snapshot_xmin`): every transaction that could write a row
/// there has ended, so what it reads there is final and a later read
/// never finds a row below a position it passed. A save that waited for
/// another's row lock draws a mark no lower than the other's, and the
/// same marks are ordered by the rows' `seq`, so such saves are read in
/// commit order. `history_trimmed_through` in `folio_metadata` is the
/// newest position ever trimmed: a reader behind it has lost rows and must
/// reload; so must one past the server's transaction IDs (a store restored
/// into another cluster).
enum PostgresHistory {
    /// A new row's mark: above its own transaction ID, and at least the
    /// snapshot's `xmax` (one past the newest completed transaction) when it
    /// is written, so at least the mark of any save it waited for. A
    /// committed row's mark is at most the `xmax` of any later snapshot.
    static let markSQL = """
        GREATEST(pg_current_xact_id()::text::bigint + 1, pg_snapshot_xmax(pg_current_snapshot())::text::bigint)
        """
    /// The horizon of the statement's snapshot: no row at or below it can still commit.
    static let horizonSQL = "pg_snapshot_xmin(pg_current_snapshot())::text::bigint"
    /// The horizon of the namespace (the connection's schema): one below
    /// the snapshot's `xmax`, and at most the oldest transaction of the
    /// snapshot that is writing its history row (its RowExclusiveLock on
    /// `folio_history`) or that ended since the snapshot (it may have
    /// written one). A transaction of the snapshot that writes its row later
    /// marks it at least `xmax`, whatever it holds now: the lock table cannot
    /// tell which will, so `xmax` itself is never passed while the snapshot
    /// has one (a row marked `xmax` is read once a later transaction ends:
    /// see ``nudge(_:)``). A long transaction elsewhere, or a save waiting
    /// for a row, holds no feed back. The lock table is read before the
    /// transactions' states (the first branch of the OR), so a writer gone
    /// from it had ended.
    static let namespaceHorizonSQL = """
        LEAST(pg_snapshot_xmax(pg_current_snapshot())::text::bigint - 1,
              (SELECT min(x::text::bigint) FROM pg_snapshot_xip(pg_current_snapshot()) x
               WHERE (x::text::bigint & 4294967295) IN (\(historyWritersSQL))
                     OR pg_xact_status(x) <> 'in progress'))
        """

    /// The transaction IDs of sessions holding a RowExclusiveLock on `folio_history`.
    private static let historyWritersSQL = """
        SELECT t.transactionid::text::bigint FROM pg_locks t
        WHERE t.locktype = 'transactionid' AND t.pid IN (
            SELECT l.pid FROM pg_locks l
            WHERE l.locktype = 'relation' AND l.relation = 'folio_history'::regclass AND l.mode = 'RowExclusiveLock'
              AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database()))
        """

    /// Ends a transaction of its own with a transaction ID, so that a later
    /// snapshot's `xmax` passes every mark committed so far: a row marked
    /// its snapshot's `xmax` is read only then, and in a quiet cluster
    /// nothing else may end. Not inside a transaction (its ID would end only
    /// with it); a failure leaves it to the next read.
    static func nudge(_ c: PGConnection) {
        guard !c.isInTransaction else { return }
        _ = try? c.execute("SELECT pg_current_xact_id()")
    }
    /// The newest committed row's mark (0: none). Whether any row lies
    /// past a bound is asked of it, never with `EXISTS (… position > bound)`:
    /// the planner cannot estimate a bound computed at run time and scans
    /// the whole table for that, which the newest rows end, while `max`
    /// reads the end of the position index.
    static let newestSQL = "COALESCE((SELECT max(position) FROM folio_history), 0)"
    /// The horizon a read after `position` uses: the server's, unless a
    /// row marked at most `waited` still waits past it (and past the
    /// position); then the namespace's, which reads the lock table. That
    /// costs the server more than the read, and on a busy server rows
    /// always wait past its horizon a moment, so a feed asks it only for a
    /// row that waited long (see ``PostgresFeedHub/rowWaitLimit``); with
    /// `waited` the largest mark, whenever a row waits.
    static func readHorizonSQL(after position: String, waited: String) -> String {
        """
        CASE WHEN LEAST(\(newestSQL), \(waited)) > GREATEST(\(horizonSQL), \(position))
             THEN \(namespaceHorizonSQL) ELSE \(horizonSQL) END
        """
    }
    /// The largest mark a committed row can have: no reader's position can be past it in this cluster.
    static let ceilingSQL = "pg_snapshot_xmax(pg_current_snapshot())::text::bigint"
    static let trimmedSQL = "COALESCE((SELECT value::bigint FROM folio_metadata WHERE key = 'history_trimmed_through'), 0)"

    /// The newest position: the horizon, or the trim mark when that is
    /// newer. A snapshot read at it (in the same transaction) has every
    /// row at or below it; rows past it are read again after it.
    static func latestPosition(_ c: PGConnection) throws -> Int64 {
        let value = try c.scalar("SELECT GREATEST(\(readHorizonSQL(after: "0", waited: "$1")), \(trimmedSQL))", [.integer(.max)])
        if case .integer(let p)? = value { return p }
        return 0
    }

    /// The rows after `position` up to the horizon (changes of `author`'s
    /// own saves left empty), with the trim mark and the horizon: one
    /// statement, so one snapshot and one round trip. The marks ride on
    /// every row, and on the one row a read with no history after the
    /// position still returns. It starts with SELECT, so a connection found
    /// lost runs it again on a new session. Rows committed past the horizon
    /// make the process's feeds of `store` read again soon.
    static func read(_ c: PGConnection, after position: Int64, excludingAuthor author: String, store: PostgresFeedHub.Key? = nil)
        throws -> HistoryRead
    {
        try readNoting(c, after: position, excludingAuthor: author, store: store).read
    }

    /// As ``read(_:after:excludingAuthor:store:)``, whether committed rows
    /// wait past the horizon, and the newest committed row's mark.
    static func readNoting(_ c: PGConnection, after position: Int64, excludingAuthor author: String, store: PostgresFeedHub.Key?)
        throws -> (read: HistoryRead, pending: Bool, newest: Int64)
    {
        let all = try readAll(c, after: position, skipping: author)
        if all.pending, let store { PostgresFeedHub.pendingFound(uri: store.uri, namespace: store.namespace, horizon: all.latest) }
        let read = HistoryRead(
            rows: all.rows.map { ($0.position, $0.author == author ? ChangeSet() : $0.changes) }, trimmed: all.trimmed, latest: all.latest)
        return (read, all.pending, all.newest)
    }

    /// Adds `reader` at the newest position under the write lock, taken
    /// exclusively: no save of the namespace is in flight then, and each
    /// takes the lock before its first write, so every row to come has a
    /// transaction ID past every committed row's mark, and the reader starts
    /// past the newest row rather than at the horizon.
    static func register(_ c: PGConnection, reader: String, lockKey: Int64, waitMilliseconds: Int32) throws -> Int64 {
        try c.execute("BEGIN")
        do {
            try c.execute("SET LOCAL lock_timeout = \(max(1, waitMilliseconds)); SELECT pg_advisory_xact_lock(\(lockKey))")
            guard
                case .integer(let position)? = try c.scalar(
                    "SELECT GREATEST(\(horizonSQL), \(trimmedSQL), (SELECT max(position) FROM folio_history))")
            else { throw StoreError.server(store: "", code: "folio", message: "no history position", sql: "") }
            try upsertReader(c, reader, position, Date().timeIntervalSince1970)
            try c.execute("COMMIT")
            return position
        } catch {
            if c.isInTransaction { try? c.execute("ROLLBACK") }
            throw error
        }
    }

    /// Records `reader` at `position`, seen now; with `silence`, how long it may stay silent from now on.
    private static func upsertReader(_ c: PGConnection, _ reader: String, _ position: Int64, _ seen: Double, silence: Double? = nil) throws
    {
        let statement = upsertReader(reader, position, seen, silence: silence)
        try c.query(statement.sql, statement.values)
    }

    private static func upsertReader(_ reader: String, _ position: Int64, _ seen: Double, silence: Double? = nil) -> PGStatement {
        PGStatement(
            """
            INSERT INTO folio_readers (reader, position, seen, silence) VALUES ($1, $2, $3, $4)
            ON CONFLICT (reader) DO UPDATE SET position = EXCLUDED.position, seen = EXCLUDED.seen,
              silence = coalesce(EXCLUDED.silence, folio_readers.silence)
            """, [.text(reader), .integer(position), .real(seen), silence.map { .real($0) } ?? .null])
    }

    /// A reader that may stay silent `silence` seconds (each acknowledgement of its own says so again).
    struct Acknowledgement {
        var reader: String
        var position: Int64
        var silence: Double
    }

    /// Records `reader` at `position`, drops readers silent past their own
    /// limits (`silenceLimit` for one that never gave one) and trims what
    /// every remaining reader has read. Gives up soon (busy) rather than
    /// wait behind another acknowledgement.
    static func acknowledge(_ c: PGConnection, reader: String, position: Int64, silenceLimit: Double) throws {
        try acknowledge(c, readers: [Acknowledgement(reader: reader, position: position, silence: silenceLimit)])
    }

    /// As above, for several readers in one transaction (a process's feeds
    /// together), sent in one round trip: a process acknowledges every
    /// tenth of a second while saves come, and each statement's own round
    /// trip cost more than the statements.
    static func acknowledge(_ c: PGConnection, readers: [Acknowledgement]) throws {
        let now = Date().timeIntervalSince1970
        // A reader registered by a build before limits were kept has none: it is held to the shortest limit here.
        let fallback = readers.map(\.silence).min() ?? HistorySettings.defaultSilenceLimit
        var statements = [PGStatement("BEGIN"), PGStatement("SET LOCAL lock_timeout = 200")]
        statements += readers.map { upsertReader($0.reader, $0.position, now, silence: $0.silence) }
        // Each reader by its own limit: a replica offline for minutes keeps its history though plain containers allow one.
        statements.append(
            PGStatement("DELETE FROM folio_readers WHERE seen < $1 - coalesce(silence, $2)", [.real(now), .real(fallback)]))
        // Readers' positions are at or below a horizon they read, so every row at or below them is final.
        // Planned each time: a plan made over a short history would scan a long one.
        statements.append(
            PGStatement(
                """
                \(PGStatementCache.plannedEachTime)
                WITH passed AS (SELECT max(position) AS through FROM folio_history
                                WHERE position <= (SELECT min(position) FROM folio_readers)),
                     trimmed AS (DELETE FROM folio_history WHERE position <= (SELECT through FROM passed))
                INSERT INTO folio_metadata (key, value)
                SELECT 'history_trimmed_through', through::text FROM passed WHERE through IS NOT NULL
                ON CONFLICT (key) DO UPDATE SET value = GREATEST(folio_metadata.value::bigint, EXCLUDED.value::bigint)::text
                """))
        statements.append(PGStatement("COMMIT"))
        do {
            _ = try c.pipeline(statements)
        } catch {
            if c.isInTransaction { try? c.execute("ROLLBACK") }
            throw error
        }
    }
}
