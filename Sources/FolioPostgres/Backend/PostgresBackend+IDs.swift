import FolioLocking
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
        PostgresSpareIDs.shared(server, namespace: namespace).drop(entity)
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

    /// A permanent ID for each insert, in insert order: from this process's
    /// spare IDs (``PostgresSpareIDs``) where they suffice, so a save of a few
    /// new objects is one round trip; else drawn, with spares, one statement
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
        let spares = PostgresSpareIDs.shared(server, namespace: namespace)
        var ids: [String: ArraySlice<Int64>] = [:]
        for name in entities { ids[name] = spares.take(counts[name]!, of: name) }
        let short = entities.filter { ids[$0] == nil }
        if !short.isEmpty {
            let results = try connection.pipeline(
                short.map {
                    PGStatement(
                        "SELECT nextval($1::regclass) FROM generate_series(1, $2)",
                        [Self.sequenceParameter($0), .integer(Int64(counts[$0]! + PostgresSpareIDs.drawnAhead))])
                })
            for (name, result) in zip(short, results) {
                let drawn = (0..<result.rowCount).map { result.int64(row: $0, column: 0) }
                guard drawn.count >= counts[name]! else {
                    throw StoreError.server(store: path, code: "", message: "the ID sequence of \(name) returned too few IDs", sql: "")
                }
                if let past = drawn.first(where: { $0 >= ReplicaIDs.ordinaryLimit }) {
                    throw StoreError.constraintViolation(
                        entity: name, key: "id", value: "\(past), past the last ID of clients that are not replicas")
                }
                ids[name] = drawn[..<counts[name]!]
                spares.add(drawn[counts[name]!...], of: name)
            }
        }
        return batch.inserts.map { insert in
            let name = insert.entity.name
            return ObjectID(entityName: name, rowID: ids[name]!.popFirst()!)
        }
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

/// IDs this process drew ahead from the namespace's sequences and has not
/// used yet. A save of new objects takes them from here, so it needs no
/// round trip to draw its IDs: its BEGIN, lock, writes, history row and
/// COMMIT go together. IDs drawn are never drawn again, so a spare is
/// this process's alone until it exits (the rest are left unused, as IDs
/// of a failed save are). Should a spare be taken meanwhile by a writer
/// that does not draw (an earlier version of Folio, or a store made anew
/// under the same name), the save is refused on its ID, the spares of
/// that entity are dropped, and the save is made again (see
/// ``PostgresBackend/realignIDSequence(_:)``).
///
///     let ids = PostgresSpareIDs.shared(server, namespace: "zoo").take(1, of: "Animal")
final class PostgresSpareIDs: Sendable {
    /// How many IDs a draw takes beyond its save's needs.
    static let drawnAhead = 31

    private let spares = LockedValue<[String: [Int64]]>([:])
    private static let all = LockedValue<[String: PostgresSpareIDs]>([:])

    /// The process's spare IDs of `namespace` on `server`.
    static func shared(_ server: PostgresServer, namespace: String?) -> PostgresSpareIDs {
        let key = server.uri + "\u{0}" + (namespace ?? "")
        return all.withLock { all in
            if let spares = all[key] { return spares }
            let spares = PostgresSpareIDs()
            all[key] = spares
            return spares
        }
    }

    /// `count` spare IDs of `entity`, smallest first; nil (taking none) when there are fewer.
    func take(_ count: Int, of entity: String) -> ArraySlice<Int64>? {
        spares.withLock { spares in
            guard let kept = spares[entity], kept.count >= count else { return nil }
            spares[entity] = Array(kept[count...])
            return kept[..<count]
        }
    }

    func add(_ ids: ArraySlice<Int64>, of entity: String) {
        guard !ids.isEmpty else { return }
        spares.withLock { spares in spares[entity] = (spares[entity] ?? []) + ids }
    }

    func drop(_ entity: String) {
        spares.withLock { _ = $0.removeValue(forKey: entity) }
    }
}
