import FolioLocking
import FolioStore

// A batch of edits goes to the server in one round trip. A waiting save that
// only changes attributes of rows the server has needs no look-up before its
// writes (no reference to settle, no rule to apply): its UPDATEs, each
// checked against the server version the save was made on, and its history
// row. So the whole batch is sent in one pipeline with its COMMIT, on the bet
// that no row changed on the server since. The server checks the bet itself:
// a statement that wrote fewer rows than it was given fails (a division by
// zero), which aborts the transaction, so its COMMIT rolls back, and the
// batch is pushed again entry by entry, which resolves it as before: nothing
// of a lost bet is ever committed.
extension ReplicaPush {
    /// Consecutive updates of the same keys of one entity, each of another
    /// row: one statement writes them all (a row written again starts the
    /// next, so every row's writes stay in commit order).
    private struct UpdateRun {
        let entity: EntityDescription
        let keys: [String]
        private var rows: Set<RowKey> = []
        private var values: [StoreValue] = []

        init(_ entity: EntityDescription, keys: [String]) {
            self.entity = entity
            self.keys = keys
        }

        func takes(_ entity: EntityDescription, _ keys: [String], _ row: RowKey) -> Bool {
            entity.name == self.entity.name && keys == self.keys && !rows.contains(row)
        }

        mutating func add(_ row: RowKey, _ new: [StoreValue], at version: Int64) {
            rows.insert(row)
            values += [.integer(row.id), .integer(version)] + new
        }

        func statement(_ sql: ReplicaPushSQL) -> PGStatement {
            PGStatement(
                PostgresBackend.checkedSQL(sql.updateRowsReturning(entity, keys: keys, count: rows.count), rows: rows.count), values)
        }
    }

    /// Batches this process pushed in one round trip, per server URI, for tests to count.
    static let batchesAtOnce = LockedValue<[String: Int]>([:])

    /// Pushes `entries` in one server transaction with one round trip for
    /// all their writes and its commit, when every entry only edits
    /// attributes and every row is where its save left it; nil (nothing
    /// written) otherwise. `meanwhile` runs while the writes are on the
    /// server, or not at all.
    func pushAtOnce(
        _ entries: [(seq: Int64, entry: OutboxEntry)], _ known: [RowKey: Int64], meanwhile: () -> Void
    ) throws -> [Done]? {
        guard entries.allSatisfy({ editsAttributesOnly($0.entry) }) else { return nil }
        var bases = known
        var runs: [UpdateRun] = []
        // The entries' history rows, after every write, in one statement announced once.
        var histories: [String] = []
        // Per entry, its updates' rows and the places of the statements writing them.
        var places: [[(row: RowKey, entity: EntityDescription, index: Int)]] = []
        for (_, entry) in entries {
            var updates: [(row: RowKey, entity: EntityDescription, index: Int)] = []
            for u in entry.updates {
                guard let entity = schema.entity(named: u.entity) else { return nil }
                let row = RowKey(u.entity, u.id)
                let base = bases[row] ?? 0
                if runs.last?.takes(entity, u.keys, row) != true { runs.append(UpdateRun(entity, keys: u.keys)) }
                runs[runs.count - 1].add(row, u.new.map(\.value), at: base)
                // Its statement's place once the check of what the server has goes first.
                updates.append((row, entity, runs.count))
                // Each update makes the next version: what the next entry writing the row expects, if the bet holds.
                bases[row] = base + 1
            }
            histories.append(entry.history)
            places.append(updates)
        }
        // The transaction, its lock and the check of what the server has from this replica (entries it has
        // already, a crash having cut off their bookkeeping here, take the careful way) go with the writes.
        var statements = [
            PGStatement(
                "SELECT 1 / coalesce((SELECT (pushed_through < $2)::int FROM folio_replicas WHERE number = $1), 0)",
                [.integer(identity.number), .integer(entries[0].seq)])
        ]
        statements += runs.map { $0.statement(sql) }
        if let rows = PostgresBackend.historyStatement(
            histories.map { (identity.author, $0) }, namespace: server.namespace, announcing: identity.author)
        {
            statements.append(rows)
        }
        statements += [
            PGStatement(
                "UPDATE folio_replicas SET pushed_through = greatest(pushed_through, $1) WHERE number = $2",
                [.integer(entries[entries.count - 1].seq), .integer(identity.number)]),
            PGStatement("COMMIT"),
        ]
        try server.beginWritingForSave(until: server.deadlineFromNow)
        let results: [PGResult]
        do {
            results = try c.pipeline(statements, meanwhile: meanwhile)
        } catch let error as StoreError where !error.isServerAway {
            // The bet was lost (or the server refused a write): rolled back whole.
            server.abandonWriting()
            return nil
        } catch {
            server.abandonWriting()
            throw error
        }
        ReplicaTrace.note("at once \(entries.map(\.seq)) \(entries.map { ReplicaTrace.describe($0.entry) })")
        Self.batchesAtOnce.withLock { $0[server.server.uri, default: 0] += 1 }
        // Committed: every row came back (the server checked each statement's count).
        var returned: [Int: [Int64: ServerRow]] = [:]
        var done: [Done] = []
        for ((seq, entry), updates) in zip(entries, places) {
            var written = Written()
            for (row, entity, index) in updates {
                if returned[index] == nil { returned[index] = rowsReturned(by: results[index], entity) }
                guard let after = returned[index]?[row.id] else { throw Self.unreturnedRow(row, server: server) }
                written.versions[row] = after.version
                written.rowsAfter[row] = after
            }
            guard var readBack = updatedRowsAlone(entry, written) else { throw Self.unreturnedRow(nil, server: server) }
            for (name, rows) in readBack.rows { readBack.rows[name] = rows.filter { !returnedAsSent(name, $0, by: entry) } }
            done.append((seq, entry, entry, written, readBack))
        }
        return done
    }

    /// A committed batch whose results do not name a row it wrote: not
    /// recorded here, so the next push reads back what the server has.
    private static func unreturnedRow(_ row: RowKey?, server: PostgresBackend) -> StoreError {
        StoreError.server(
            store: server.path, code: "folio",
            message: "the server committed a pushed batch without returning \(row.map { "\($0.entity) \($0.id)" } ?? "every row it wrote")",
            sql: "")
    }

    /// Whether the server returned `row` with the values `entry` sent for it. The bet held,
    /// so the row was at the version the save was made on, and holds what this file holds
    /// but for the keys written: then nothing in this file's row needs a look. A value the
    /// server returned otherwise (its rounding of a time, say) is written here as it returned it.
    private func returnedAsSent(_ name: String, _ row: ServerRow, by entry: OutboxEntry) -> Bool {
        guard let u = entry.updates.first(where: { $0.entity == name && $0.id == row.id }), let entity = schema.entity(named: name)
        else { return false }
        let columns = sql.entity(entity).columns
        return zip(u.keys, u.new).allSatisfy { key, new in columns.firstIndex(of: key).map { row.values[$0] == new.value } ?? false }
    }

    /// The rows an UPDATE of ``ReplicaPushSQL/updateRowsReturning(_:keys:count:)`` returned, by ID.
    private func rowsReturned(by r: PGResult, _ entity: EntityDescription) -> [Int64: ServerRow] {
        let count = sql.entity(entity).columns.count
        var rows: [Int64: ServerRow] = [:]
        for i in 0..<r.rowCount {
            let id = r.int64(row: i, column: 0)
            rows[id] = ServerRow(
                id: id, values: (0..<count).map { r.value(row: i, column: $0 + 1) }, version: r.int64(row: i, column: count + 1))
        }
        return rows
    }

    /// Whether the entry only changes attributes (no relationship, insert,
    /// deletion, membership or order), each row at most once.
    private func editsAttributesOnly(_ entry: OutboxEntry) -> Bool {
        guard entry.inserts.isEmpty, entry.deletes.isEmpty, entry.adds.isEmpty, entry.removes.isEmpty, entry.orders.isEmpty,
            !entry.updates.isEmpty
        else { return false }
        var rows = Set<RowKey>()
        for u in entry.updates {
            guard let entity = schema.entity(named: u.entity), rows.insert(RowKey(u.entity, u.id)).inserted,
                u.keys.allSatisfy({ entity.byName[$0]?.isAttribute == true })
            else { return false }
        }
        return true
    }
}
