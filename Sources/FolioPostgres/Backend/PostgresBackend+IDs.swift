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
        // The spares may be taken too.
        spareIDs[entity] = nil
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

    /// How many IDs a draw takes beyond what its save needs, for the saves after it.
    static let spareIDCount = 31

    /// A permanent ID for each insert, in insert order, taken from the IDs
    /// drawn ahead: a save that inserts is then one round trip, as one that
    /// only edits. An entity whose spares fall short draws what it lacks
    /// and ``spareIDCount`` more (none in a write transaction, whose
    /// connection ends with it; one statement per entity, all in one
    /// round trip with the transaction's deferred BEGIN and lock). IDs of
    /// one save need not be consecutive, and saves of several processes
    /// need not commit in ID order (a controller moves a row whose new ID
    /// sorts elsewhere; see `ResultsEngine.renameIDs`). An ID taken is never
    /// handed out again, even when its save fails: it may have landed.
    func allocateIDs(_ batch: SaveBatch) throws -> [ObjectID] {
        guard !batch.inserts.isEmpty else { return [] }
        var entities: [String] = []
        var needed: [String: Int] = [:]
        for insert in batch.inserts {
            let name = insert.entity.name
            if needed[name] == nil { entities.append(name) }
            needed[name, default: 0] += 1
        }
        let short = entities.filter { needed[$0]! > spareIDs[$0, default: []].count }
        if !short.isEmpty {
            let results = try connection.pipeline(
                short.map { name in
                    // A write transaction's connection lives for that transaction alone: no spares.
                    let count = needed[name]! - spareIDs[name, default: []].count + (inWriteTransaction ? 0 : Self.spareIDCount)
                    return PGStatement(
                        "SELECT nextval($1::regclass) FROM generate_series(1, $2)", [Self.sequenceParameter(name), .integer(Int64(count))])
                })
            for (name, result) in zip(short, results) {
                for row in 0..<result.rowCount { spareIDs[name, default: []].append(result.int64(row: row, column: 0)) }
                guard spareIDs[name, default: []].count >= needed[name]! else {
                    throw StoreError.server(store: path, code: "", message: "the ID sequence of \(name) returned too few IDs", sql: "")
                }
            }
        }
        var taken: [String: ArraySlice<Int64>] = [:]
        for name in entities {
            taken[name] = spareIDs[name]![..<needed[name]!]
            spareIDs[name]!.removeFirst(needed[name]!)
        }
        var ids: [ObjectID] = []
        ids.reserveCapacity(batch.inserts.count)
        for insert in batch.inserts {
            let name = insert.entity.name
            let id = taken[name]!.removeFirst()
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
