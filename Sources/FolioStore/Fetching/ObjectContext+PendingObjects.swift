extension ObjectContext {
    /// The objects of `e` whose values for `plan` may differ from what the
    /// store's rows say, so a fetch evaluates them in memory: those with
    /// unsaved changes, and those whose key paths or predicate read through a
    /// to-one relationship to an object with unsaved changes (an animal
    /// sorted by `classification.order` while its classification's order is
    /// being edited). Nothing when the request leaves out pending changes.
    ///
    /// - Complexity: O(t) for t objects with unsaved changes, plus one query
    ///   when related objects have some.
    func pendingObjects<T>(of e: EntityDescription, _ request: FetchRequest<T>, _ plan: FetchPlan) throws -> [ManagedObject] {
        guard request.includesPendingChanges else { return [] }
        var found = touchedList.filter { $0.isTouched && $0.meta === e }
        var related = FetchPlan(entity: e)
        related.joins = plan.joins
        for (alias, entity) in plan.joined {
            // A new object is in no stored row's join; a fault has no changed values.
            let changed = touchedList.filter { $0.isTouched && $0.meta === entity && !$0.objectID.isTemporary && !$0.isFault }
            if !changed.isEmpty { related.joinedIDs.append((alias, changed.map(\.objectID.rowID))) }
        }
        guard !related.joinedIDs.isEmpty else { return found }
        var known = Set(found.map(\.objectID))
        let ids = try withStore { try $0.fetchKeys(related) }
            .map { ObjectID(entityName: e.name, rowID: $0.0) }
            .filter { known.insert($0).inserted }
        found += try objects(with: ids) as [ManagedObject]
        return found
    }
}
