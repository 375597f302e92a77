// Core Data's `execute(_:)` for batch requests. The request runs straight in
// SQL in one transaction; then, unlike Core Data, this context merges the
// change at once (as another context's save: registered objects refreshed or
// turned into deleted ones, unsaved edits kept), the container's other
// contexts merge it on their own queues, and other processes read it from
// the history, so every live controller reports it as one change.
extension ObjectContext {
    /// Inserts the request's objects straight into the store; see ``BatchInsertRequest``.
    ///
    ///     try context.execute(BatchInsertRequest<Planet>(objects: [["name": "Ceres", "position": 9]]))
    @discardableResult
    public func execute<Entity>(_ request: BatchInsertRequest<Entity>) throws -> BatchResult {
        requireConfinement()
        let rows = try request.rows(for: schema.entity(for: Entity.self))
        return try run(.insert(rows), request.resultType)
    }

    /// Updates the matching objects straight in the store; see ``BatchUpdateRequest``.
    ///
    ///     try context.execute(BatchUpdateRequest<Planet>(predicate: #Predicate { $0.position > 4 }).setting(\.visited, to: true))
    @discardableResult
    public func execute<Entity>(_ request: BatchUpdateRequest<Entity>) throws -> BatchResult {
        requireConfinement()
        let sets = try request.assignments(for: schema.entity(for: Entity.self))
        return try run(.update(try makePlan(FetchRequest(predicate: request.predicate), keyPaths: []), sets), request.resultType)
    }

    /// Deletes the matching objects straight in the store, with the delete rules; see ``BatchDeleteRequest``.
    ///
    ///     try context.execute(BatchDeleteRequest<Planet>(predicate: #Predicate { $0.name == "Pluto" }))
    @discardableResult
    public func execute<Entity>(_ request: BatchDeleteRequest<Entity>) throws -> BatchResult {
        requireConfinement()
        let e = schema.entity(for: Entity.self)
        let ids = request.objectIDs.map { $0.filter { $0.entityName == e.name && !$0.isTemporary }.map(\.rowID) }
        return try run(.delete(try makePlan(FetchRequest(predicate: request.predicate), keyPaths: []), ids: ids), request.resultType)
    }

    private func run(_ write: BatchWrite, _ resultType: BatchResultType) throws -> BatchResult {
        precondition(writeTransaction == nil, "a batch request inside performWrite: run it before or after")
        // Observers hear this context's own changes first, at a state before the batch.
        processPendingChanges()
        let outcome = try coordinator.execute(write)
        var changes = outcome.changes
        var unheard: EntityDescription?
        if let new = outcome.inserted {
            if !observers.isEmpty || coordinator.hasInboxes(besides: inbox) {
                changes.inserted.reserveCapacity(new.rows.count)
                for row in new.rows { changes.inserted.insert(ObjectID(entityName: new.entity, rowID: row)) }
            } else {
                // No observer and no other context hears the new IDs (an import's million rows):
                // this context merges only the objects it holds under them and its lists of their entity.
                unheard = schema.entity(named: new.entity)
                if let unheard { changes.inserted = registry.registeredIDs(unheard, in: new.rows) }
            }
        }
        if !changes.isEmpty || unheard != nil {
            merge(changes, insertedInto: unheard)
            if !changes.isEmpty { coordinator.broadcast(changes, except: inbox) }
        }
        let ids = resultType == .objectIDs ? (outcome.inserted?.ids ?? outcome.ids) : []
        return BatchResult(resultType: resultType, count: outcome.count, objectIDs: ids)
    }
}
