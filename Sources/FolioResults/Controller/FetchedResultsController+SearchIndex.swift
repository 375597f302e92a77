import FolioStore

extension FetchedResultsController {
    /// Where a searched attribute's text comes from: a key column the rows
    /// hold already, or the store (read once for every row of the base).
    private enum TextSource {
        case key(Int)
        case stored(Int)
    }

    /// The kept base's index for each filter, built for those that have
    /// none yet; nil when a filter reads what is not a String attribute of
    /// the entity itself (the store answers it). The base must exist.
    /// - Complexity: O(1) for indexes already built; O(n) and at most one
    ///   query for the others.
    func searchIndexes(for filters: [StringFilter<Entity>], plan: KeyPlan<Entity>) throws -> [SearchIndex]? {
        guard let entity = managedObjectContext.schema.entity(named: Entity.entity.name) else { return nil }
        var found: [SearchIndex] = []
        for filter in filters {
            if let index = searchBase!.indexes.first(where: { $0.answers(filter) }) {
                found.append(index)
                continue
            }
            var sources: [TextSource] = [], stored: [PartialKeyPath<Entity>] = []
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
            let index: SearchIndex
            do {
                index = try buildIndex(filter, sources: sources, stored: stored, sectioned: plan.sectioned)
            } catch is SearchIndex.SearchIndexTooLarge {
                return nil
            }
            searchBase!.indexes.append(index)
            found.append(index)
        }
        return found
    }

    /// The folded texts of `filter`'s attributes for every row of the base, in its order.
    private func buildIndex(
        _ filter: StringFilter<Entity>, sources: [TextSource], stored: [PartialKeyPath<Entity>],
        sectioned: Bool
    ) throws -> SearchIndex {
        let base = searchBase!
        let texts = try storedTexts(stored)
        let first = sectioned ? 1 : 0
        var section = 0, row = 0
        return try SearchIndex(
            keyPaths: filter.textKeyPaths.map { $0 as AnyKeyPath }, options: filter.foldingOptions,
            rows: base.count
        ) { position, add in
            while row == base.sections[section].entries.count { section += 1; row = 0 }
            let (key, entry) = (base.sections[section].section, base.sections[section].entries[row])
            row += 1
            for source in sources {
                switch source {
                case .key(let column):
                    if case .text(let text)? = SearchScan.value(column, first, key, entry.key) { add(text) } else { add(nil) }
                case .stored(let column):
                    add(texts[column][position])
                }
            }
        }
    }

    /// For each of `keyPaths`, every base row's text, in the base's order
    /// (nil for a nil text or a row the store did not return).
    /// - Complexity: one query; O(n).
    private func storedTexts(_ keyPaths: [PartialKeyPath<Entity>]) throws -> [[String?]] {
        guard !keyPaths.isEmpty else { return [] }
        let base = searchBase!
        // Each row's place in the base: by ID in an array for the store's dense row IDs, else by dictionary.
        var dense = [Int32](repeating: -1, count: base.count * 2 + 1024)
        var sparse: [Int64: Int32] = [:]
        var position: Int32 = 0
        for (_, entries, _) in base.sections {
            for entry in entries {
                if entry.id >= 0 && entry.id < dense.count { dense[Int(entry.id)] = position } else { sparse[entry.id] = position }
                position += 1
            }
        }
        var texts = [[String?]](repeating: [String?](repeating: nil, count: base.count), count: keyPaths.count)
        func take(_ id: Int64, _ values: borrowing [StoreValue]) {
            let place = id >= 0 && id < dense.count ? dense[Int(id)] : sparse[id] ?? -1
            guard place >= 0 else { return }
            for column in keyPaths.indices {
                if case .text(let text) = values[column] { texts[column][Int(place)] = text }
            }
        }
        var request = base.request
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
