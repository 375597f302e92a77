import FolioStore

// A waiting save that refers to an object the server deleted meanwhile (a
// new animal in a classification another replica deleted): the server's
// deletion stands, and the referring row follows the delete rule it would
// have met had it been there then. Under `.cascade` it goes too (a new row
// is never pushed, a stored one is deleted at its version); under the
// other rules the reference is cleared (`.deny` could not refuse a
// deletion that already happened). Many-to-many members added to a
// deleted object are dropped, as its deletion drops its members.
extension ReplicaPush {
    /// Settles the entry's references to rows the server does not have
    /// (and will not have from this entry), before anything is written.
    func settleDangling(_ entry: inout OutboxEntry, _ written: inout Written) throws {
        while true {
            let missing = try missingTargets(entry)
            if missing.isEmpty { return }
            ReplicaTrace.note("dangling \(missing.sorted().map { "\($0.entity)#\($0.id)" }) in \(ReplicaTrace.describe(entry))")
            func dangles(_ p: PropertyDescription, _ value: StoreValue?) -> Bool {
                guard case .integer(let id)? = value else { return false }
                return missing.contains(RowKey(p.target.name, id))
            }
            var gone: Set<RowKey> = []
            for index in entry.inserts.indices.reversed() {
                let insert = entry.inserts[index]
                guard let entity = schema.entity(named: insert.entity) else { continue }
                for p in entity.toOnes where dangles(p, insert.values[p.name]?.value) {
                    if p.inverse.deleteRule == .cascade {
                        gone.insert(RowKey(insert.entity, insert.id))
                    } else {
                        entry.inserts[index].values[p.name] = ReplicaValue(.null)
                        written.refresh.insert(RowKey(insert.entity, insert.id))
                    }
                }
            }
            for index in entry.updates.indices {
                let update = entry.updates[index]
                guard let entity = schema.entity(named: update.entity) else { continue }
                for (k, key) in update.keys.enumerated() {
                    guard let p = entity.byName[key], p.isToOne, dangles(p, update.new[k].value) else { continue }
                    if p.inverse.deleteRule == .cascade {
                        gone.insert(RowKey(update.entity, update.id))
                    } else {
                        entry.updates[index].new[k] = ReplicaValue(.null)
                        written.refresh.insert(RowKey(update.entity, update.id))
                    }
                }
            }
            entry.adds.removeAll { link in
                guard let p = schema.entity(named: link.entity)?.byName[link.property] else { return true }
                return missing.contains(RowKey(link.entity, link.owner)) || missing.contains(RowKey(p.target.name, link.member))
            }
            drop(gone, from: &entry, &written)
        }
    }

    /// Rows the entry refers to that neither the server nor the entry's own inserts hold.
    private func missingTargets(_ entry: OutboxEntry) throws -> Set<RowKey> {
        let inserted = Set(entry.inserts.map { RowKey($0.entity, $0.id) })
        var wanted: [String: Set<Int64>] = [:]
        func want(_ entity: String, _ value: StoreValue?) {
            guard case .integer(let id)? = value, !inserted.contains(RowKey(entity, id)) else { return }
            wanted[entity, default: []].insert(id)
        }
        for insert in entry.inserts {
            for p in schema.entity(named: insert.entity)?.toOnes ?? [] { want(p.target.name, insert.values[p.name]?.value) }
        }
        for update in entry.updates {
            guard let entity = schema.entity(named: update.entity) else { continue }
            for (key, value) in zip(update.keys, update.new) where entity.byName[key]?.isToOne == true {
                want(entity.byName[key]!.target.name, value.value)
            }
        }
        for link in entry.adds {
            guard let p = schema.entity(named: link.entity)?.byName[link.property] else { continue }
            want(link.entity, .integer(link.owner))
            want(p.target.name, .integer(link.member))
        }
        var missing: Set<RowKey> = []
        for (name, ids) in wanted {
            let r = try c.query(
                "SELECT id FROM \(quote(name)) WHERE \(PostgresBackend.isOneOf("id"))", [PostgresBackend.idArray(Array(ids))])
            let found = Set((0..<r.rowCount).map { r.int64(row: $0, column: 0) })
            for id in ids where !found.contains(id) { missing.insert(RowKey(name, id)) }
        }
        return missing
    }

    /// Takes `rows` out of the entry: a new row is not pushed, a stored one is deleted; both leave the replica.
    private func drop(_ rows: Set<RowKey>, from entry: inout OutboxEntry, _ written: inout Written) {
        guard !rows.isEmpty else { return }
        let stored = entry.updates.map { RowKey($0.entity, $0.id) }.filter { rows.contains($0) }
        entry.inserts.removeAll { rows.contains(RowKey($0.entity, $0.id)) }
        entry.updates.removeAll { rows.contains(RowKey($0.entity, $0.id)) }
        for row in stored where !entry.deletes.contains(where: { RowKey($0.entity, $0.id) == row }) {
            entry.deletes.append(OutboxEntry.Delete(entity: row.entity, id: row.id))
        }
        entry.removes.removeAll { rows.contains(RowKey($0.entity, $0.owner)) }
        entry.orders.removeAll { rows.contains(RowKey($0.entity, $0.owner)) }
        for row in rows {
            if !stored.contains(row) { written.dropped.insert(row) }
            written.gone.insert(row)
            written.refresh.remove(row)
            written.versions[row] = .some(nil)
        }
    }
}

// A deletion pushed from a replica meets the server's rows as they are now,
// which can hold members the replica never saw: its delete rules run on
// the server too, as they would have run in the save had it seen them.
extension ReplicaPush {
    /// Whether a deny rule of `entity` refuses deleting row `id`: it has members on the server that the entry does not delete.
    func isDenied(_ entity: EntityDescription, _ id: Int64, _ entry: OutboxEntry) throws -> Bool {
        for p in entity.toManys where p.deleteRule == .deny {
            guard let sql = server.dialect.membersQuery(p) else { continue }
            let r = try c.query(sql, [.integer(id)])
            let deleted = Set(entry.deletes.filter { $0.entity == p.target.name }.map(\.id))
            if (0..<r.rowCount).contains(where: { !deleted.contains(r.int64(row: $0, column: 0)) }) { return true }
        }
        return false
    }

    /// The rows on the server that refer to `row` are read back here too: a
    /// deletion the server did not take brings back the row, and what the
    /// replica had let go with it (its delete rules ran here when it was saved).
    func refreshReferrers(of row: RowKey, _ written: inout Written) throws {
        for entity in schema.entities {
            for p in entity.toOnes where p.target.name == row.entity {
                let r = try c.query("SELECT id FROM \(quote(entity.name)) WHERE \(quote(p.name)) = $1", [.integer(row.id)])
                for i in 0..<r.rowCount { written.refresh.insert(RowKey(entity.name, r.int64(row: i, column: 0))) }
            }
        }
    }

    /// After the entry's writes: rows that still refer to a row it deleted
    /// are deleted in turn (`.cascade`) or cleared (the other rules).
    func applyDeleteRules(_ entry: OutboxEntry, _ written: inout Written) throws {
        var queue = entry.deletes.map { RowKey($0.entity, $0.id) }.filter {
            written.versions[$0] == .some(nil) && !written.refresh.contains($0)
        }
        while let row = queue.popLast() {
            for entity in schema.entities {
                for p in entity.toOnes where p.target.name == row.entity {
                    if p.inverse.deleteRule == .cascade {
                        let r = try c.query(
                            "DELETE FROM \(quote(entity.name)) WHERE \(quote(p.name)) = $1 RETURNING id", [.integer(row.id)])
                        for i in 0..<r.rowCount {
                            let gone = RowKey(entity.name, r.int64(row: i, column: 0))
                            written.gone.insert(gone)
                            written.versions[gone] = .some(nil)
                            written.refresh.remove(gone)
                            queue.append(gone)
                        }
                    } else {
                        let r = try c.query(
                            """
                            UPDATE \(quote(entity.name)) SET \(quote(p.name)) = NULL, \(RowVersion.column) = \(RowVersion.column) + 1
                            WHERE \(quote(p.name)) = $1 RETURNING id, \(RowVersion.column)
                            """, [.integer(row.id)])
                        for i in 0..<r.rowCount {
                            let cleared = RowKey(entity.name, r.int64(row: i, column: 0))
                            written.refresh.insert(cleared)
                            written.cleared[cleared, default: []].insert(p.name)
                        }
                    }
                }
            }
        }
    }
}
