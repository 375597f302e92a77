import FolioStore

/// Pushes an outbox entry (or a batch of them, see ReplicaPush+Batch) in one server transaction under the write lock,
/// with the checks a save makes: each row it updates or deletes must still
/// be at the server version the local save was made on. A row changed
/// since is resolved key by key by the merge policy, as a save between two
/// processes is (`.error` leaves the entry waiting with its conflicts). The
/// transaction records the entry as this replica's last pushed one, so a
/// push whose local bookkeeping a crash cut off is not made twice.
struct ReplicaPush {
    let server: PostgresBackend
    let file: ReplicaFile
    let schema: Schema
    let identity: ReplicaIdentity
    let policy: MergePolicy
    /// The author of the replica's own history rows.
    let localAuthor: String
    /// The push's statements, spelled once a round.
    let sql = ReplicaPushSQL()

    enum Outcome {
        case pushed
        case conflicts([SaveConflict])
    }

    /// What the server holds for the entry's rows after it: each row's new
    /// version (nil: gone), and the rows whose resolved values must be read back here.
    struct Written {
        var versions: [RowKey: Int64?] = [:]
        var refresh: Set<RowKey> = []
        var conflicts: [SaveConflict] = []
        /// Rows that leave the replica: they referred to objects deleted on the server (see `settleDangling`),
        /// or a deletion's rule took them on the server.
        var gone: Set<RowKey> = []
        /// Of those, the new rows that were never pushed.
        var dropped: Set<RowKey> = []
        /// Keys the server's delete rules cleared, for the history.
        var cleared: [RowKey: Set<String>] = [:]
        /// Updated rows as their update left them.
        var rowsAfter: [RowKey: ServerRow] = [:]
    }

    var c: PGConnection { server.connection }

    /// Pushes the entry. A unique value the server holds already (saved
    /// there since) is refused as a save between two processes is; once a
    /// later local save changed that value here, the entry is pushed with
    /// the row's current value (the later save then changes nothing more).
    func push(_ seq: Int64, _ saved: OutboxEntry) throws -> Outcome {
        var entry = saved
        for _ in 0..<8 {
            do { return try pushOnce(seq, entry) } catch StoreError.constraintViolation(let entity, let key, let value) {
                guard let changed = try adoptingLocalValues(entry, entity: entity, key: key) else {
                    throw StoreError.constraintViolation(entity: entity, key: key, value: value)
                }
                entry = changed
            }
        }
        return try pushOnce(seq, entry)
    }

    /// The entry with the unique keys (`key` and the groups it is unique
    /// together with) of its rows of `entity` as they are here now; nil when none differs.
    private func adoptingLocalValues(_ entry: OutboxEntry, entity name: String, key: String) throws -> OutboxEntry? {
        // A unique-together group is named by all its columns: "aisle, bay".
        let named = key.components(separatedBy: ", ")
        guard let entity = schema.entity(named: name), named.allSatisfy({ entity.byName[$0]?.isAttribute == true }) else { return nil }
        let groups = entity.uniqueTogether.filter { !Set($0).isDisjoint(with: named) }
        let keys = Array(Set(named + groups.flatMap { $0 })).filter { entity.byName[$0] != nil }
        func now(_ id: Int64) throws -> [StoreValue]? {
            try file.connection.rows("SELECT \(keys.map(quote).joined(separator: ", ")) FROM \(quote(name)) WHERE id = ?", [.integer(id)])
                .first
        }
        var changed = entry
        var adopted = false
        for i in changed.inserts.indices where changed.inserts[i].entity == name {
            guard let values = try now(changed.inserts[i].id) else { continue }
            for (k, v) in zip(keys, values) where changed.inserts[i].values[k]?.value != v {
                changed.inserts[i].values[k] = ReplicaValue(v)
                adopted = true
            }
        }
        for i in changed.updates.indices where changed.updates[i].entity == name {
            guard let values = try now(changed.updates[i].id) else { continue }
            for (k, v) in zip(keys, values) {
                guard let j = changed.updates[i].keys.firstIndex(of: k), changed.updates[i].new[j].value != v else { continue }
                changed.updates[i].new[j] = ReplicaValue(v)
                adopted = true
            }
        }
        return adopted ? changed : nil
    }

    private func pushOnce(_ seq: Int64, _ saved: OutboxEntry) throws -> Outcome {
        var entry = saved
        var bases: [RowKey: Int64] = [:]
        try addBases(of: entry, to: &bases)
        try server.beginWriting(until: server.deadlineFromNow)
        var written = Written()
        var readBack = ReadBack()
        do {
            if try pushedThrough() >= seq {
                // Pushed before a crash cut off its bookkeeping here: take the versions the server has now.
                readBack = try read(entry, Set(entry.rows))
                for row in entry.rows { written.versions[row] = readBack.version(of: row) }
                try c.execute("COMMIT")
            } else {
                try settleDangling(&entry, &written)
                try write(entry, bases, &written)
                if !written.conflicts.isEmpty {
                    ReplicaTrace.note("conflicts \(seq) \(ReplicaTrace.describe(entry)) => \(ReplicaTrace.describe(written))")
                    server.abandonWriting()
                    return .conflicts(written.conflicts)
                }
                try c.query("UPDATE folio_replicas SET pushed_through = $1 WHERE number = $2", [.integer(seq), .integer(identity.number)])
                // Every row it touched, as the server holds it now: the pull kept these rows' waiting keys and
                // left them to this push, and the server's rules may have changed more than the entry says.
                readBack = try read(entry, Set(entry.rows).union(written.refresh).subtracting(written.gone))
                try server.writeHistory(history(entry, written, readBack), author: identity.author, then: "COMMIT")
            }
        } catch {
            server.abandonWriting()
            throw error
        }
        ReplicaTrace.note(
            "pushed \(seq) bases \(bases.map { "\($0.key.id)@\($0.value)" }) \(ReplicaTrace.describe(entry)) => \(ReplicaTrace.describe(written))"
        )
        try finish(seq, entry, written, readBack)
        return .pushed
    }

    /// The server version each row `entry` updates or deletes was made on,
    /// for rows `bases` lacks (an earlier entry of the same push sets what it leaves).
    func addBases(of entry: OutboxEntry, to bases: inout [RowKey: Int64]) throws {
        for u in entry.updates where bases[RowKey(u.entity, u.id)] == nil {
            bases[RowKey(u.entity, u.id)] = try file.base(of: RowKey(u.entity, u.id), seen: u.seen)
        }
        for d in entry.deletes where bases[RowKey(d.entity, d.id)] == nil {
            bases[RowKey(d.entity, d.id)] = try file.base(of: RowKey(d.entity, d.id), seen: d.seen)
        }
    }

    /// The entry's history as written: a deletion the policy kept is no
    /// deletion, and an update of a row deleted elsewhere was not made.
    func history(_ entry: OutboxEntry, _ written: Written, _ readBack: ReadBack) -> String {
        let kept = entry.deletes.map { RowKey($0.entity, $0.id) }.filter { readBack.version(of: $0) != nil }
        let dropped = entry.updates.map { RowKey($0.entity, $0.id) }.filter { written.versions[$0] == .some(nil) }
        guard !kept.isEmpty || !dropped.isEmpty || !written.gone.isEmpty || !written.cleared.isEmpty else { return entry.history }
        var changes = ChangeSet(historyText: entry.history, origin: .thisContext)
        for row in kept { changes.deleted.remove(ObjectID(entityName: row.entity, rowID: row.id)) }
        for row in dropped { changes.updated[ObjectID(entityName: row.entity, rowID: row.id)] = nil }
        for row in written.gone {
            let id = ObjectID(entityName: row.entity, rowID: row.id)
            changes.inserted.remove(id)
            changes.updated[id] = nil
            if !written.dropped.contains(row) { changes.deleted.insert(id) }
        }
        for (row, keys) in written.cleared { changes.updated[ObjectID(entityName: row.entity, rowID: row.id), default: []].formUnion(keys) }
        return changes.historyText()
    }

    /// The entry's writes, in the order a save makes them.
    func write(_ entry: OutboxEntry, _ bases: [RowKey: Int64], _ written: inout Written) throws {
        for d in entry.deletes {
            guard let entity = schema.entity(named: d.entity), try isDenied(entity, d.id, entry) else { continue }
            // A member it denies deletion for came to it on the server: the deletion is dropped and the row comes back here.
            let row = RowKey(d.entity, d.id)
            written.versions[row] = try ReplicaRows.read(c, entity, ids: [d.id]).first?.version
            written.refresh.insert(row)
            try refreshReferrers(of: row, &written)
        }
        for d in entry.deletes {
            guard let entity = schema.entity(named: d.entity) else { continue }
            let row = RowKey(d.entity, d.id)
            // Refused, or a member of a refused deletion (its rules took it here): it comes back with it.
            if written.refresh.contains(row) {
                written.versions[row] = try ReplicaRows.read(c, entity, ids: [d.id]).first?.version
                continue
            }
            let r = try c.query(
                "DELETE FROM \(quote(d.entity)) WHERE id = $1 AND \(RowVersion.column) = $2 RETURNING id",
                [.integer(d.id), .integer(bases[row] ?? 0)])
            written.versions[row] = .some(nil)
            if r.rowCount == 0, let stored = try ReplicaRows.read(c, entity, ids: [d.id]).first {
                try resolveDeletion(entity, stored, &written)
            }
        }
        // A row whose deletion the server did not take keeps what the deletion's rules changed here with it: the
        // references its nullify rule cleared, and its links.
        let kept = Set(entry.deletes.map { RowKey($0.entity, $0.id) }).intersection(written.refresh)
        try insert(entry.inserts, &written)
        for saved in entry.updates {
            guard let entity = schema.entity(named: saved.entity) else { continue }
            let row = RowKey(saved.entity, saved.id)
            let u = withoutClearing(kept, saved, entity)
            if u.keys.isEmpty {
                written.versions[row] = try ReplicaRows.read(c, entity, ids: [u.id]).first?.version
                written.refresh.insert(row)
                continue
            }
            if let after = try updateReturningRow(entity, u.id, keys: u.keys, values: u.new.map(\.value), at: bases[row] ?? 0) {
                written.versions[row] = after.version
                written.rowsAfter[row] = after
            } else {
                try resolveUpdate(entity, u, &written)
            }
        }
        for link in entry.removes where !touches(link, kept) {
            guard let (table, a, b) = link.joinRow(in: schema) else { continue }
            try c.query("DELETE FROM \(quote(table)) WHERE a = $1 AND b = $2", [.integer(a), .integer(b)])
        }
        for link in entry.adds {
            guard let (table, a, b) = link.joinRow(in: schema) else { continue }
            try c.query("INSERT INTO \(quote(table)) (a, b) VALUES ($1, $2) ON CONFLICT DO NOTHING", [.integer(a), .integer(b)])
        }
        for order in entry.orders { try writeOrder(order) }
        try applyDeleteRules(entry, &written)
    }

    /// The update without the keys that cleared a reference to one of `kept`.
    private func withoutClearing(_ kept: Set<RowKey>, _ u: OutboxEntry.Update, _ entity: EntityDescription) -> OutboxEntry.Update {
        guard !kept.isEmpty else { return u }
        var result = u
        result.keys = []; result.new = []; result.old = []
        for (index, key) in u.keys.enumerated() {
            if let p = entity.byName[key], p.isToOne, u.new[index].value == .null, case .integer(let id) = u.old[index].value,
                kept.contains(RowKey(p.target.name, id))
            {
                continue
            }
            result.keys.append(key); result.new.append(u.new[index]); result.old.append(u.old[index])
        }
        return result
    }

    /// Whether either end of `link` is one of `rows`.
    private func touches(_ link: OutboxEntry.Link, _ rows: Set<RowKey>) -> Bool {
        guard !rows.isEmpty else { return false }
        let target = schema.entity(named: link.entity)?.byName[link.property]?.target.name
        return rows.contains(RowKey(link.entity, link.owner)) || target.map { rows.contains(RowKey($0, link.member)) } == true
    }

    /// Writes `keys` of a row at server version `version`; the row as written (all its columns), or nil when it is not at that version.
    func updateReturningRow(_ entity: EntityDescription, _ id: Int64, keys: [String], values: [StoreValue], at version: Int64) throws
        -> ServerRow?
    {
        let statement = updateReturningRowStatement(entity, id, keys: keys, values: values, at: version)
        return rowReturned(by: try c.query(statement.sql, statement.values), entity, id)
    }

    /// The UPDATE of ``updateReturningRow(_:_:keys:values:at:)``.
    func updateReturningRowStatement(_ entity: EntityDescription, _ id: Int64, keys: [String], values: [StoreValue], at version: Int64)
        -> PGStatement
    {
        PGStatement(sql.updateReturningRow(entity, keys: keys), values + [.integer(id), .integer(version)])
    }

    /// The row an UPDATE of that statement returned; nil when it matched none.
    func rowReturned(by r: PGResult, _ entity: EntityDescription, _ id: Int64) -> ServerRow? {
        guard r.rowCount > 0 else { return nil }
        let count = sql.entity(entity).columns.count
        return ServerRow(id: id, values: (0..<count).map { r.value(row: 0, column: $0) }, version: r.int64(row: 0, column: count))
    }

    /// Writes `keys` of a row at server version `version`; its new version, or nil when the row is not at that version.
    func update(_ entity: EntityDescription, _ id: Int64, keys: [String], values: [StoreValue], at version: Int64) throws -> Int64? {
        let sets =
            keys.enumerated().map { "\(quote($0.element)) = $\($0.offset + 1)" } + ["\(RowVersion.column) = \(RowVersion.column) + 1"]
        let r = try c.query(
            """
            UPDATE \(quote(entity.name)) SET \(sets.joined(separator: ", "))
            WHERE id = $\(keys.count + 1) AND \(RowVersion.column) = $\(keys.count + 2) RETURNING \(RowVersion.column)
            """, values + [.integer(id), .integer(version)])
        return r.rowCount == 0 ? nil : r.int64(row: 0, column: 0)
    }

    private func insert(_ inserts: [OutboxEntry.Insert], _ written: inout Written) throws {
        var index = 0
        while index < inserts.count {
            var end = index
            while end < inserts.count && inserts[end].entity == inserts[index].entity { end += 1 }
            let start = index
            index = end
            guard let entity = schema.entity(named: inserts[start].entity) else { continue }
            let columns = entity.attributes + entity.toOnes
            try server.insertMany(entity, columns: columns, count: end - start) { i, values in
                let insert = inserts[start + i]
                values.append(.integer(insert.id))
                for p in columns { values.append(insert.values[p.name]?.value ?? .null) }
            }
            for insert in inserts[start..<end] { written.versions[RowKey(insert.entity, insert.id)] = RowVersion.first }
        }
    }

    private func writeOrder(_ order: OutboxEntry.Order) throws {
        guard let p = schema.entity(named: order.entity)?.byName[order.property] else { return }
        for (position, member) in order.members.enumerated() {
            switch p.storage {
            case .inverseColumn(_, let column?):
                try c.query(
                    "UPDATE \(quote(p.target.name)) SET \(quote(column)) = $1 WHERE id = $2",
                    [.integer(Int64(position)), .integer(member)])
            case .joinTable(let table, let mine, let other, let column?):
                try c.query(
                    "UPDATE \(quote(table)) SET \(column) = $1 WHERE \(mine) = $2 AND \(other) = $3",
                    [.integer(Int64(position)), .integer(order.owner), .integer(member)])
            default:
                return
            }
        }
    }
}
