import FolioStore

// A batch of edits goes to the server in one round trip. A waiting save that
// only changes attributes of rows the server has needs no look-up before its
// writes (no reference to settle, no rule to apply): its UPDATEs, each
// checked against the server version the save was made on, and its history
// row. So the whole batch is sent in one pipeline, on the bet that no row
// changed on the server since; the results show whether it held. When a row
// had moved on (or the server refused a write), the transaction is rolled
// back and the batch is pushed again entry by entry, which resolves it as
// before: nothing of the bet is ever committed.
extension ReplicaPush {
    /// Pushes `entries` in one server transaction with one round trip for
    /// all their writes, when every entry only edits attributes and every
    /// row is where its save left it; nil (nothing written) otherwise.
    func pushAtOnce(_ entries: [(seq: Int64, entry: OutboxEntry)], _ known: [RowKey: Int64]) throws -> [Done]? {
        guard entries.allSatisfy({ editsAttributesOnly($0.entry) }) else { return nil }
        var bases = known
        var statements: [PGStatement] = []
        // The entries' history rows, after every write, in one statement announced once.
        var histories: [String] = []
        // Per entry, its updates' places among the statements.
        var places: [[(row: RowKey, entity: EntityDescription, index: Int)]] = []
        for (_, entry) in entries {
            var updates: [(row: RowKey, entity: EntityDescription, index: Int)] = []
            for u in entry.updates {
                guard let entity = schema.entity(named: u.entity) else { return nil }
                let row = RowKey(u.entity, u.id)
                let base = bases[row] ?? 0
                // Its place once the check of what the server has goes first.
                updates.append((row, entity, statements.count + 1))
                statements.append(updateReturningRowStatement(entity, u.id, keys: u.keys, values: u.new.map(\.value), at: base))
                // Each update makes the next version: what the next entry writing the row expects, if the bet holds.
                bases[row] = base + 1
            }
            histories.append(entry.history)
            places.append(updates)
        }
        if let rows = PostgresBackend.historyStatement(histories, author: identity.author, namespace: server.namespace) {
            statements.append(rows)
        }
        // The transaction, its lock and the check of what the server has from this replica go with the writes.
        statements.insert(
            PGStatement("SELECT pushed_through FROM folio_replicas WHERE number = $1", [.integer(identity.number)]), at: 0)
        try server.beginWritingForSave(until: server.deadlineFromNow)
        var done: [Done] = []
        do {
            let results: [PGResult]
            do { results = try c.pipeline(statements) } catch let error as StoreError where !error.isServerAway {
                server.abandonWriting()
                return nil
            }
            // Entries the server has already (a crash cut off their bookkeeping here) take the careful way.
            guard results[0].rowCount > 0, results[0].int64(row: 0, column: 0) < entries[0].seq else {
                server.abandonWriting()
                return nil
            }
            for ((seq, entry), updates) in zip(entries, places) {
                var written = Written()
                for (row, entity, index) in updates {
                    guard let after = rowReturned(by: results[index], entity, row.id) else {
                        // A row changed on the server since: the bet is off.
                        server.abandonWriting()
                        return nil
                    }
                    written.versions[row] = after.version
                    written.rowsAfter[row] = after
                }
                guard let readBack = updatedRowsAlone(entry, written) else {
                    server.abandonWriting()
                    return nil
                }
                done.append((seq, entry, entry, written, readBack))
            }
            try c.query(
                "UPDATE folio_replicas SET pushed_through = greatest(pushed_through, $1) WHERE number = $2",
                [.integer(entries[entries.count - 1].seq), .integer(identity.number)], then: ["COMMIT"])
        } catch {
            server.abandonWriting()
            throw error
        }
        return done
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
