import FolioStore

// A pushed entry's rows are read back in its server transaction and written
// here: a pull keeps the keys of waiting saves on top and so skips the
// server's changes to them, and the server's rules (a refused deletion, a
// cascade over rows this replica never saw) may leave more than the entry
// says. After the push the replica holds what the server holds for them,
// under the keys of later waiting saves. A deletion the server did not take
// brings its row back with its many-to-many rows: the local save removed
// them with it.
extension ReplicaPush {
    /// The server's rows of a pushed entry: those it has, and those it has not.
    struct ReadBack {
        var rows: [String: [ServerRow]] = [:]
        var versions: [RowKey: Int64] = [:]
        var absent: Set<RowKey> = []
        /// The many-to-many rows of rows the entry deleted and the server still has.
        var links: [JoinRefresh] = []

        /// The row's server version; nil when the server has no such row.
        func version(of row: RowKey) -> Int64? { versions[row] }
    }

    /// Reads `touched` (the entry's rows, and those its writes reached) as the server holds them.
    func read(_ entry: OutboxEntry, _ touched: Set<RowKey>) throws -> ReadBack {
        var result = ReadBack()
        for (name, keys) in Dictionary(grouping: touched, by: \.entity) {
            guard let entity = schema.entity(named: name) else { continue }
            let rows = try ReplicaRows.read(c, entity, ids: keys.map(\.id))
            result.rows[name] = rows
            for row in rows { result.versions[RowKey(name, row.id)] = row.version }
            result.absent.formUnion(keys.filter { result.versions[$0] == nil })
        }
        let kept = entry.deletes.map { RowKey($0.entity, $0.id) }.filter { result.versions[$0] != nil }
        for (name, rows) in Dictionary(grouping: kept, by: \.entity) {
            guard let entity = schema.entity(named: name) else { continue }
            for p in entity.toManys {
                if let join = try JoinRefresh(c, entity, p, owners: rows.map(\.id)) { result.links.append(join) }
            }
        }
        return result
    }

    /// After the server committed: in one SQLite transaction, the entry
    /// leaves the outbox, its rows take their server versions, and rows
    /// that differ from the server's take its values (with a history row,
    /// so every context here hears it).
    func finish(_ seq: Int64, _ entry: OutboxEntry, _ written: Written, _ readBack: ReadBack) throws {
        try file.write {
            try file.removePushed(seq, through: seq)
            try record(entry, written, readBack, pending: PendingRows(try file.outbox().map(\.entry)))
        }
    }

    /// ``finish(_:_:_:_:)`` after the entry left the outbox, inside a write
    /// transaction the caller holds; `pending` are the saves waiting after it.
    func record(_ entry: OutboxEntry, _ written: Written, _ readBack: ReadBack, pending: PendingRows) throws {
        for (row, version) in written.versions {
            if let version {
                // What the next waiting save of the row is made on (a row new here has its first one now).
                try file.connection.run(
                    """
                    INSERT INTO folio_replica_rows (entity, id, version, base) VALUES (?, ?, ?, ?)
                    ON CONFLICT (entity, id) DO UPDATE SET version = excluded.version, base = excluded.base, pending = max(pending - 1, 0)
                    """, [.text(row.entity), .integer(row.id), .integer(version), .integer(version)])
            } else {
                try file.connection.run(
                    "DELETE FROM folio_replica_rows WHERE entity = ? AND id = ?", [.text(row.entity), .integer(row.id)])
            }
        }
        var changes = ChangeSet(origin: .otherProcess)
        var gone = Set(written.gone.map { ObjectID(entityName: $0.entity, rowID: $0.id) })
        for row in readBack.absent where try isHere(row.entity, row.id) {
            gone.insert(ObjectID(entityName: row.entity, rowID: row.id))
        }
        for (name, ids) in Dictionary(grouping: gone, by: \.entityName) {
            guard let entity = schema.entity(named: name) else { continue }
            try file.delete(entity, ids: ids.map(\.rowID))
        }
        changes.deleted = gone
        changes = changes.merged(with: try file.settleDangling(schema, deleted: gone))
        // Rows that come back may refer to each other (the foreign keys are checked at commit).
        let coming = Set(readBack.versions.keys).subtracting(pending.deleted)
        for (name, rows) in readBack.rows {
            guard let entity = schema.entity(named: name) else { continue }
            try refresh(entity, rows, pending, coming, written, &changes)
        }
        try relink(readBack.links, pending, &changes)
        try file.writeHistory(changes, author: localAuthor)
    }

    /// Writes the server's many-to-many rows of rows back here (those whose
    /// other end is here too), then the waiting saves' links on top.
    private func relink(_ links: [JoinRefresh], _ pending: PendingRows, _ changes: inout ChangeSet) throws {
        guard !links.isEmpty else { return }
        for join in links {
            guard let p = schema.entity(named: join.entity)?.byName[join.property] else { continue }
            var rows: [JoinRow] = []
            for row in join.rows {
                let (owner, member) = join.ends(of: row)
                guard !pending.isDeleted(RowKey(p.target.name, member)), try isHere(join.entity, owner), try isHere(p.target.name, member)
                else { continue }
                rows.append(row)
                for (id, key) in [
                    (ObjectID(entityName: join.entity, rowID: owner), p.name),
                    (ObjectID(entityName: p.target.name, rowID: member), p.inverse.name),
                ]
                where !changes.inserted.contains(id) {
                    changes.updated[id, default: []].insert(key)
                }
            }
            try file.insertJoin(join.table, rows)
        }
        try pending.replayLinks(schema, into: file)
    }

    /// Writes the server's values of `rows` where they differ here (but for
    /// the keys of later waiting saves, and references to rows not here yet,
    /// which a later pull brings with them).
    private func refresh(
        _ entity: EntityDescription, _ rows: [ServerRow], _ pending: PendingRows, _ coming: Set<RowKey>,
        _ written: Written, _ changes: inout ChangeSet
    ) throws {
        let name = entity.name, statements = sql.entity(entity)
        let columns = statements.columns, targets = statements.targets, select = statements.selectHere
        var keep: [Int64: Set<String>] = [:]
        for row in rows { keep[row.id] = pending.keys(name, row.id) }
        var differing: [ServerRow] = []
        for row in rows where !pending.isDeleted(RowKey(name, row.id)) {
            var kept = keep[row.id] ?? []
            for (index, column) in columns.enumerated() {
                guard let target = targets[column], case .integer(let ref) = row.values[index],
                    !coming.contains(RowKey(target, ref)), try !isHere(target, ref)
                else { continue }
                kept.insert(column)
            }
            let id = ObjectID(entityName: name, rowID: row.id)
            guard let here = try file.connection.rows(select, [.integer(row.id)]).first else {
                // Back on the server (a refused deletion): here again, once what it refers to is.
                guard kept.isSubset(of: keep[row.id] ?? []) else { continue }
                changes.inserted.insert(id)
                differing.append(row)
                continue
            }
            keep[row.id] = kept
            let keys = columns.indices.filter { !kept.contains(columns[$0]) && here[$0] != row.values[$0] }.map { columns[$0] }
            // The version its own write left is recorded already (the commonest case: an update's row as it returned it).
            if written.versions[RowKey(name, row.id)] != .some(row.version) {
                try file.connection.run(
                    "UPDATE folio_replica_rows SET version = ? WHERE entity = ? AND id = ?",
                    [.integer(row.version), .text(name), .integer(row.id)])
            }
            guard !keys.isEmpty else { continue }
            changes.updated[id, default: []].formUnion(keys)
            differing.append(row)
        }
        if !differing.isEmpty {
            ReplicaTrace.note(
                "refresh \(name) \(differing.map { ReplicaTrace.describe($0, columns) }) keep \(keep.filter { !$0.value.isEmpty })")
            try file.upsert(entity, differing, keep: keep)
        }
    }

    private func isHere(_ entity: String, _ id: Int64) throws -> Bool {
        try !file.connection.rows("SELECT 1 FROM \(quote(entity)) WHERE id = ?", [.integer(id)]).isEmpty
    }
}
