import FolioStore

// Object IDs come from one sequence per entity: drawing from a sequence
// takes no lock a transaction keeps, so saves of one namespace insert side
// by side. Every drawer holds the namespace's write lock (a save shared, a
// batch request or a migration exclusively), so a batch's consecutive
// range, drawn in two steps, is never split by another save.
extension PostgresBackend {
    /// The sequence of `entity`'s IDs (names are capped at 63 bytes: a longer one ends in a hash of the whole).
    static func idSequence(_ entity: String) -> String {
        let name = "folio_ids_" + entity
        guard name.utf8.count > 63 else { return name }
        let hash = String(UInt64(bitPattern: PostgresLock.key(entity)), radix: 16)
        var prefix = ""
        for character in name where prefix.utf8.count + character.utf8.count + 1 + hash.utf8.count <= 63 {
            prefix.append(character)
        }
        return prefix + "_" + hash
    }

    /// The sequence as a `regclass` parameter.
    private static func sequenceParameter(_ entity: String) -> StoreValue { .text(quote(idSequence(entity))) }

    /// Makes each entity's sequence and moves it past the IDs already used:
    /// the rows (below the replicas' IDs) and the `folio_sequence` mark a
    /// seed or an earlier version left. Under the exclusive write lock, so
    /// no save draws meanwhile; a sequence already ahead is left alone.
    func prepareIDSequences(_ schema: Schema) throws {
        _ = try connection.pipeline(
            schema.entities.flatMap { entity in
                [PGStatement("CREATE SEQUENCE IF NOT EXISTS \(quote(Self.idSequence(entity.name)))"), alignment(entity.name)]
            })
    }

    /// Moves `entity`'s sequence past its rows in a transaction of its own
    /// holding the exclusive write lock. An earlier version of Folio, still
    /// saving to the same store, picks IDs from the rows and the mark
    /// without drawing from the sequence, so a new object's ID can already
    /// be taken; a save refused for that is made again after this.
    func realignIDSequence(_ entity: String) throws {
        try beginWriting(until: deadlineFromNow)
        do {
            _ = try connection.pipeline([alignment(entity), PGStatement("COMMIT")])
        } catch {
            abandonWriting()
            throw error
        }
    }

    /// The statement that moves `entity`'s sequence forward past the IDs
    /// its rows and its `folio_sequence` mark have used, never back.
    private func alignment(_ entity: String) -> PGStatement {
        PGStatement(
            """
            SELECT setval($1::regclass, wanted, false)
            FROM (SELECT GREATEST(COALESCE((SELECT next FROM folio_sequence WHERE entity = $2), 1),
                                  COALESCE((SELECT max(id) + 1 FROM \(quote(entity)) WHERE id < $3), 1)) AS wanted) w,
                 \(quote(Self.idSequence(entity))) s
            WHERE w.wanted > s.last_value + CASE WHEN s.is_called THEN 1 ELSE 0 END
            """, [Self.sequenceParameter(entity), .text(entity), .integer(ReplicaIDs.ordinaryLimit)])
    }

    /// Draws a permanent ID for each insert, in insert order: one statement
    /// per entity, all in one round trip (with the transaction's deferred
    /// BEGIN and lock). IDs of one save need not be consecutive.
    func allocateIDs(_ batch: SaveBatch) throws -> [ObjectID] {
        guard !batch.inserts.isEmpty else { return [] }
        var entities: [String] = []
        var counts: [String: Int] = [:]
        for insert in batch.inserts {
            let name = insert.entity.name
            if counts[name] == nil { entities.append(name) }
            counts[name, default: 0] += 1
        }
        // One ID alone is drawn without `generate_series`: the server plans that form anew at each run (its
        // row count is a parameter), which cost a single-object save as much as drawing the ID.
        let results = try connection.pipeline(
            entities.map {
                counts[$0] == 1
                    ? PGStatement("SELECT nextval($1::regclass)", [Self.sequenceParameter($0)])
                    : PGStatement(
                        "SELECT nextval($1::regclass) FROM generate_series(1, $2)",
                        [Self.sequenceParameter($0), .integer(Int64(counts[$0]!))])
            })
        var drawn: [String: (result: PGResult, next: Int)] = [:]
        for (name, result) in zip(entities, results) { drawn[name] = (result, 0) }
        var ids: [ObjectID] = []
        ids.reserveCapacity(batch.inserts.count)
        for insert in batch.inserts {
            let name = insert.entity.name
            guard let (result, row) = drawn[name], row < result.rowCount else {
                throw StoreError.server(store: path, code: "", message: "the ID sequence of \(name) returned too few IDs", sql: "")
            }
            drawn[name]?.next = row + 1
            let id = result.int64(row: row, column: 0)
            guard id < ReplicaIDs.ordinaryLimit else {
                throw StoreError.constraintViolation(
                    entity: name, key: "id", value: "\(id), past the last ID of clients that are not replicas")
            }
            ids.append(ObjectID(entityName: name, rowID: id))
        }
        return ids
    }

    /// `count` consecutive IDs of `entity`, the first returned: the
    /// sequence is drawn once and moved on past the range. Only under the
    /// exclusive write lock (see above).
    func reserveConsecutiveIDs(_ entity: String, count: Int) throws -> Int64 {
        let sequence = Self.sequenceParameter(entity)
        // Past the rows an earlier version of Folio may have written without the sequence (see realignIDSequence).
        _ = try connection.pipeline([alignment(entity)])
        guard
            case .integer(let last)? = try connection.scalar(
                "SELECT setval($1::regclass, nextval($1::regclass) + $2 - 1)", [sequence, .integer(Int64(count))])
        else { throw StoreError.server(store: path, code: "", message: "the ID sequence of \(entity) returned no ID", sql: "") }
        let first = last - Int64(count) + 1
        guard last < ReplicaIDs.ordinaryLimit else {
            throw StoreError.constraintViolation(entity: entity, key: "id", value: "\(first) + \(count), past the largest possible")
        }
        return first
    }
}
