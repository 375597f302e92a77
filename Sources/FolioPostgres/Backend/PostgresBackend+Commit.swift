import FolioStore

extension PostgresBackend {
    /// Writes one save as a single transaction: permanent IDs, deletes,
    /// inserts (many rows a statement), updates, relationship rows,
    /// positions, and the history row, announced with `NOTIFY` when it
    /// commits. On any failure nothing is written. Inside a write
    /// transaction it is a savepoint of that transaction.
    ///
    /// Saves of a namespace write side by side: each holds the write lock
    /// shared, its version-checked writes wait only for rows another save
    /// holds (and then see that save's commit), and its history row takes
    /// no lock (its mark orders it; see ``PostgresHistory``). Saves of
    /// this process that meet go as one transaction (see
    /// ``PostgresSaveGroup``). A save the server ends to break a deadlock
    /// (two saves waiting for each other's rows) is made again.
    func commit(_ batch: SaveBatch, author: String) throws -> [ObjectID] {
        if inWriteTransaction || connection.isInTransaction { return try commitStepwise(batch, author: author) }
        if onlyBeginningForSave, let permanent = try commitTogether(batch, author: author) { return permanent }
        var attempt = 0
        var realigned = false
        while true {
            attempt += 1
            do {
                if !isWriting { try beginWritingForSave(until: deadlineFromNow) }
                if let permanent = try commitPipelined(batch, author: author) { return permanent }
                // A versioned write matched no row: made again the general way, which names every object in conflict.
                try beginWritingForSave(until: deadlineFromNow)
                return try commitStepwise(batch, author: author)
            } catch StoreError.server(_, Self.deadlockCode, _, _) where attempt < Self.deadlockAttempts {
                continue
            } catch StoreError.constraintViolation(let entity, "id", _)
                where !realigned && batch.inserts.contains(where: { $0.entity.name == entity })
            {
                // A new object's ID was taken by a writer that does not draw from the sequence.
                realigned = true
                try realignIDSequence(entity)
            }
        }
    }

    /// Makes the save in a group with the process's other saves in flight
    /// (see ``PostgresSaveGroup``). Nil when the group failed in a way that
    /// may be another save's (a conflict, a constraint, a deadlock, a row
    /// another client held past the wait): the save is then made alone,
    /// which names the save at fault. A lost connection fails it at once
    /// (the group may have committed), as do a busy lock and a timeout
    /// met alone (another try would only wait again).
    private func commitTogether(_ batch: SaveBatch, author: String) throws -> [ObjectID]? {
        // The group's leader sends its own BEGIN and lock.
        connection.dropDeferred()
        let permanent = try allocateIDs(batch)
        let save = GroupedSave(
            statements: writeStatements(batch, permanent), history: batch.changes.historyText(inserted: permanent), author: author)
        let outcome = PostgresSaveGroup.shared(server, namespace: namespace).commit(save) { try commitGroup($0) }
        switch outcome.result {
        case .success: return permanent
        case .failure(let error as StoreError):
            switch error {
            case .offline: throw error
            case .busy, .timedOut:
                if outcome.groupSize == 1 { throw error }
                return nil
            default: return nil
            }
        case .failure: return nil
        }
    }

    /// Writes `saves` in one transaction, in one round trip, as a lone
    /// save is written: BEGIN and the shared lock, each save's writes, then
    /// ``commitPipeline(_:rows:)`` with one history row a save.
    func commitGroup(_ saves: [GroupedSave]) throws {
        do {
            try beginWritingForSave(until: deadlineFromNow)
            try commitPipeline(saves.flatMap(\.statements), rows: saves.map { ($0.author, $0.history) })
        } catch {
            abandonWriting()
            throw error
        }
    }

    /// Whether nothing is open or waiting to be sent on this connection but
    /// a save's own BEGIN and shared lock (see ``beginWritingForSave(until:)``).
    private var onlyBeginningForSave: Bool {
        let deferred = connection.deferred
        return deferred.isEmpty || (deferred.count == 2 && deferred[1].sql == Self.sharedLockSQL)
    }

    /// The server ended the transaction to break a deadlock.
    static let deadlockCode = "40P01"
    /// How many times a save ended by a deadlock is made in all.
    static let deadlockAttempts = 5

    /// A save whose transaction has not started yet (its BEGIN and lock are
    /// deferred) goes to the server in one round trip, where a save is
    /// mostly its round trips: the BEGIN and lock, every write, the deferred
    /// constraints' checks, the history row and COMMIT in one pipeline (two
    /// when its new objects need more IDs than were drawn ahead). A versioned write that
    /// matches no row fails there (see ``checkedSQL(_:)``), so nothing is
    /// committed; then nil is returned.
    private func commitPipelined(_ batch: SaveBatch, author: String) throws -> [ObjectID]? {
        do {
            let permanent = try allocateIDs(batch)
            try commitPipeline(writeStatements(batch, permanent), rows: [(author, batch.changes.historyText(inserted: permanent))])
            return permanent
        } catch StoreError.server(_, Self.missedRowCode, _, _) {
            abandonWriting()
            return nil
        } catch {
            abandonWriting()
            throw try clearerFailure(error, batch)
        }
    }

    /// A save's writes for a pipeline: a versioned write that matches no
    /// row fails (see ``checkedSQL(_:)``), so nothing is committed.
    private func writeStatements(_ batch: SaveBatch, _ permanent: [ObjectID]) -> [PGStatement] {
        let row = rowValue(batch, permanent)
        let (deletes, updates) = versionedWrites(batch, row: row)
        var statements = deletes.map { PGStatement(Self.checkedSQL($0.sql), $0.values) }
        statements += insertStatements(batch, permanent, row)
        statements += updates.map { PGStatement(Self.checkedSQL($0.1.sql), $0.1.values) }
        statements += relationshipWrites(batch, row: row)
        return statements
    }

    /// The general way, a statement at a time, naming every object in
    /// conflict: a savepoint inside a write transaction, else the open
    /// transaction (or one whose BEGIN and lock are deferred).
    private func commitStepwise(_ batch: SaveBatch, author: String) throws -> [ObjectID] {
        if inWriteTransaction { try connection.execute("SAVEPOINT folio_save") }
        do {
            let permanent = try allocateIDs(batch)
            let row = rowValue(batch, permanent)
            // A write that matches no row at its version: changed or deleted by another save since it was read.
            var misses: [VersionMiss] = []
            let (deletes, updates) = versionedWrites(batch, row: row)
            for (d, statement) in zip(batch.deletes, deletes) {
                let written = try connection.query(statement.sql, statement.values)
                if written.rowCount == 0 { misses.append(VersionMiss(entity: d.entity, id: d.id, deleting: true)) }
            }
            for statement in insertStatements(batch, permanent, row) { try connection.query(statement.sql, statement.values) }
            for (update, statement) in updates {
                let written = try connection.query(statement.sql, statement.values)
                if written.rowCount == 0 { misses.append(VersionMiss(entity: update.entity, id: update.id, deleting: false)) }
            }
            try throwIfStale(misses)
            for statement in relationshipWrites(batch, row: row) { try connection.query(statement.sql, statement.values) }
            try writeHistory(
                batch.changes.historyText(inserted: permanent), author: author,
                then: inWriteTransaction ? "RELEASE SAVEPOINT folio_save" : "COMMIT")
            return permanent
        } catch {
            if inWriteTransaction {
                try? connection.execute("ROLLBACK TO SAVEPOINT folio_save; RELEASE SAVEPOINT folio_save")
            } else {
                abandonWriting()
            }
            throw try clearerFailure(error, batch)
        }
    }

    /// A reference's stored value: a new object's permanent row ID, else its own.
    private func rowValue(_ batch: SaveBatch, _ permanent: [ObjectID]) -> (ObjectID) -> StoreValue {
        guard batch.refersToNewObjects else { return { .integer($0.rowID) } }
        var map: [ObjectID: ObjectID] = [:]
        map.reserveCapacity(permanent.count)
        for (insert, id) in zip(batch.inserts, permanent) { map[insert.id] = id }
        return { id in .integer(id.isTemporary ? map[id]?.rowID ?? id.rowID : id.rowID) }
    }

    /// A failed save's error; the deferred foreign keys' refusal at commit
    /// says which relationship, and why.
    private func clearerFailure(_ error: any Error, _ batch: SaveBatch) throws -> any Error {
        if case StoreError.server(_, "23503", _, _) = error, let clear = try? danglingReferenceError(batch) { return clear }
        return error
    }

}
