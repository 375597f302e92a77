import FolioStore

extension FetchedResultsController {
    /// The search session's index for each filter, built for those that have
    /// none yet; nil when a filter reads what is not a String attribute of
    /// the entity itself (the store answers it). The session must exist.
    /// - Complexity: O(1) for indexes already built; O(n) and at most one
    ///   query for the others.
    func searchIndexes(for filters: [StringFilter<Entity>], plan: KeyPlan<Entity>) throws -> [SearchIndex]? {
        guard let entity = managedObjectContext.schema.entity(named: Entity.entity.name) else { return nil }
        var found: [SearchIndex] = []
        for filter in filters {
            if let index = searchSession!.index(answering: filter) {
                found.append(index)
                continue
            }
            var sources: [SearchSession<Entity>.TextSource] = [], stored: [PartialKeyPath<Entity>] = []
            for keyPath in filter.textKeyPaths {
                guard let chain = try? entity.properties(along: keyPath),
                    chain.count == 1, chain[0].isAttribute, chain[0].storeType == .text
                else { return nil }
                if let column = plan.keyPaths.firstIndex(where: { $0 == keyPath }) {
                    sources.append(.key(column))
                } else {
                    sources.append(.stored(stored.count))
                    stored.append(keyPath)
                }
            }
            let texts = try storedTexts(stored)
            do {
                found.append(try searchSession!.buildIndex(filter, sources: sources, texts: texts, sectioned: plan.sectioned))
            } catch is SearchIndex.SearchIndexTooLarge {
                return nil
            }
        }
        return found
    }

    /// For each of `keyPaths`, every row's text, in the search session's order
    /// (nil for a nil text or a row the store did not return).
    /// - Complexity: one query; O(n).
    private func storedTexts(_ keyPaths: [PartialKeyPath<Entity>]) throws -> [[String?]] {
        guard !keyPaths.isEmpty else { return [] }
        let session = searchSession!
        let places = session.rowPlaces()
        var texts = [[String?]](repeating: [String?](repeating: nil, count: session.count), count: keyPaths.count)
        func take(_ id: Int64, _ values: borrowing [StoreValue]) {
            let place = places.place(of: id)
            guard place >= 0 else { return }
            for column in keyPaths.indices {
                if case .text(let text) = values[column] { texts[column][Int(place)] = text }
            }
        }
        var request = session.request
        request.sortDescriptors = []
        request.fetchBatchSize = 0
        request.includesPendingChanges = true
        let fetch = try managedObjectContext.prepareKeyFetch(request, keyPaths: keyPaths)
        let streamed = try managedObjectContext.forEachStoredKey(fetch) { id, values in take(id, values) }
        if !streamed {
            for row in try managedObjectContext.fetchKeys(fetch, restrictedToRows: nil) { take(engineID(row.id), row.values) }
        }
        return texts
    }
}
