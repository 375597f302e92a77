import FolioStore

// Waiting saves go to the server in batches: one transaction, one lock and
// one commit for many entries, each still checked and resolved on its own
// (under a savepoint of its own, with a history row of its own), in commit
// order, and recorded here in one SQLite transaction after the server's
// commit. A failure before that commit loses nothing: the server rolls the
// whole batch back and every entry still waits here.

/// The saves waiting in the outbox as ``PendingRows``, each entry read (and
/// decoded) once a round: pushed entries are taken out, saves made meanwhile counted in.
struct WaitingSaves {
    var pending = PendingRows()
    /// The newest outbox entry counted.
    private(set) var known: Int64 = 0
    /// Entries the server committed that this file has not recorded yet:
    /// recorded while the next batch is on the server, or before anything
    /// else reads what they leave here (see ``ReplicaPush/recordUnrecorded(_:)``).
    var unrecorded: [ReplicaPush.Done] = []
    /// The entries read and not pushed yet, oldest first (from `start` on).
    private var entries: [(seq: Int64, entry: OutboxEntry)] = []
    private var start = 0

    /// Counts the entries saved since the last look.
    mutating func catchUp(_ file: ReplicaFile) throws {
        for (seq, entry) in try file.outbox(after: known) {
            pending.add(entry)
            entries.append((seq, entry))
            known = seq
        }
    }

    /// The oldest `limit` entries not pushed yet.
    func oldest(_ limit: Int) -> [(seq: Int64, entry: OutboxEntry)] {
        Array(entries[start..<min(entries.count, start + limit)])
    }

    /// The oldest `count` entries were pushed (they left the outbox).
    mutating func pushed(_ count: Int) {
        start = min(entries.count, start + count)
        if start > 1024 && start * 2 > entries.count {
            entries.removeFirst(start)
            start = 0
        }
    }
}

extension ReplicaPush {
    /// How many entries one server transaction takes at most.
    static let batchSize = 200

    /// What pushing a batch did: the entries pushed (the first ones), and why it stopped before the end.
    struct BatchOutcome {
        var pushed = 0
        /// The next entry met conflicts the policy leaves to the app.
        var conflicts: [SaveConflict]?
        /// The server refused the next entry: it is pushed alone (which adopts unique values changed here, or waits).
        var refused = false
    }

    /// An entry the server committed, with what it wrote, for the bookkeeping here.
    typealias Done = (seq: Int64, saved: OutboxEntry, entry: OutboxEntry, written: Written, readBack: ReadBack)

    /// Pushes `entries` (the oldest waiting) in one server transaction. A
    /// batch pushed at once is recorded here while the next one is on the
    /// server: call ``recordUnrecorded(_:)`` when done pushing.
    func push(_ entries: [(seq: Int64, entry: OutboxEntry)], waiting: inout WaitingSaves) throws -> BatchOutcome {
        // Each row's server version as the next entry writing it expects: what the batch before left (not recorded
        // here yet), the file's, then what this batch leaves.
        var bases: [RowKey: Int64] = [:]
        for d in waiting.unrecorded {
            for case (let row, let version?) in d.written.versions { bases[row] = version }
        }
        for (_, entry) in entries { try addBases(of: entry, to: &bases) }
        // The batch before is recorded while this one is on the server; when that fails, this one may still commit.
        var recording: (any Error)?
        let atOnce = try pushAtOnce(entries, bases) {
            do { try recordUnrecorded(&waiting) } catch { recording = error }
        }
        if let atOnce { waiting.unrecorded += atOnce }
        if let recording { throw recording }
        if let atOnce { return BatchOutcome(pushed: atOnce.count) }
        try recordUnrecorded(&waiting)
        var done: [Done] = []
        var outcome = BatchOutcome()
        try server.beginWriting(until: server.deadlineFromNow)
        do {
            let through = try pushedThrough()
            for (seq, saved) in entries {
                var entry = saved, written = Written(), readBack = ReadBack()
                if through >= seq {
                    // Pushed before a crash cut off its bookkeeping here: take the versions the server has now.
                    readBack = try read(entry, Set(entry.rows))
                    for row in entry.rows { written.versions[row] = readBack.version(of: row) }
                } else {
                    // The entry before may still be on its way (its history, sent with this entry's first statement).
                    let carried = !c.deferred.isEmpty
                    c.sendWithNextStatement([PGStatement("SAVEPOINT folio_push")])
                    do {
                        try settleDangling(&entry, &written)
                        try write(entry, bases, &written)
                    } catch let error as StoreError where !error.isServerAway && !carried {
                        try c.execute("ROLLBACK TO SAVEPOINT folio_push")
                        outcome.refused = true
                        break
                    }
                    if !written.conflicts.isEmpty {
                        try c.execute("ROLLBACK TO SAVEPOINT folio_push")
                        outcome.conflicts = written.conflicts
                        break
                    }
                    if let rows = updatedRowsAlone(entry, written) {
                        // Only updates, each row as its update returned it: the history goes with the next statement.
                        readBack = rows
                        let statements = server.historyStatement(entry.history, author: identity.author).map { [$0] } ?? []
                        c.sendWithNextStatement(statements + [PGStatement("RELEASE SAVEPOINT folio_push")])
                    } else {
                        readBack = try read(entry, Set(entry.rows).union(written.refresh).subtracting(written.gone))
                        try server.writeHistory(
                            history(entry, written, readBack), author: identity.author, then: "RELEASE SAVEPOINT folio_push")
                    }
                }
                for (row, version) in written.versions { if let version { bases[row] = version } }
                ReplicaTrace.note("batched \(seq) through=\(through) \(ReplicaTrace.describe(entry)) => \(ReplicaTrace.describe(written))")
                done.append((seq, saved, entry, written, readBack))
            }
            guard let last = done.last else {
                server.abandonWriting()
                return outcome
            }
            try c.query(
                "UPDATE folio_replicas SET pushed_through = greatest(pushed_through, $1) WHERE number = $2",
                [.integer(last.seq), .integer(identity.number)], then: ["COMMIT"])
        } catch {
            server.abandonWriting()
            throw error
        }
        try recordPushed(done, waiting: &waiting)
        outcome.pushed = done.count
        return outcome
    }

    /// Records the entries the server committed and this file has not yet.
    func recordUnrecorded(_ waiting: inout WaitingSaves) throws {
        try recordPushed(waiting.unrecorded, waiting: &waiting)
        waiting.unrecorded = []
    }

    /// After the server's commit, in one SQLite transaction: the entries leave the outbox and their rows take what the server holds.
    private func recordPushed(_ done: [Done], waiting: inout WaitingSaves) throws {
        guard let first = done.first?.seq, let last = done.last?.seq else { return }
        do {
            try file.write {
                try waiting.catchUp(file)
                // The oldest waiting entries, one after another: saves made meanwhile have larger numbers.
                try file.removePushed(first, through: last)
                for d in done {
                    waiting.pending.remove(d.saved)
                    try record(d.entry, d.written, d.readBack, pending: waiting.pending)
                }
            }
        } catch {
            // The file has none of it: every entry of its outbox waits, these too (recorded when tried again).
            if let entries = try? file.outbox() { waiting.pending = PendingRows(entries.map(\.entry)) }
            throw error
        }
    }

    /// What a read back would give for an entry that only updated rows, which
    /// nothing after their updates changed (no deletion, order or rule): the
    /// rows its updates returned. Nil for any other entry.
    func updatedRowsAlone(_ entry: OutboxEntry, _ written: Written) -> ReadBack? {
        guard entry.inserts.isEmpty, entry.deletes.isEmpty, entry.orders.isEmpty, written.refresh.isEmpty, written.gone.isEmpty,
            written.cleared.isEmpty, written.rowsAfter.count == entry.updates.count
        else { return nil }
        var readBack = ReadBack()
        for (row, after) in written.rowsAfter {
            readBack.rows[row.entity, default: []].append(after)
            readBack.versions[row] = after.version
        }
        return readBack
    }

    /// The newest entry the server has from this replica.
    func pushedThrough() throws -> Int64 {
        guard
            case .integer(let through)? = try c.scalar(
                "SELECT pushed_through FROM folio_replicas WHERE number = $1",
                [.integer(identity.number)])
        else {
            throw StoreError.server(
                store: server.path, code: "folio", message: "the server does not know replica \(identity.number)", sql: "")
        }
        return through
    }
}

extension StoreError {
    /// The server cannot be reached or did not answer in time (nothing it was sent is known to stand).
    var isServerAway: Bool {
        switch self {
        case .offline, .timedOut: true
        default: false
        }
    }
}
