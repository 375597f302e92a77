import FolioStore

/// What the controller reads for each row: the sort key paths (the first is
/// the section key when sectioned), then, for sort keys that go through a
/// to-one relationship, that relationship (its row ID), so that a change to
/// the related object can find the rows that depend on it.
struct KeyPlan<Entity: ManagedObject> {
    /// One sort key read through a to-one relationship.
    struct Related {
        /// The column of the relationship's row ID in the fetched values.
        var column: Int
        /// The related entity's keys whose change can move dependents.
        var keyNames: Set<String>
    }

    let entityName: String
    let keyPaths: [PartialKeyPath<Entity>]
    let ascending: [Bool]
    let sortCount: Int
    let sectioned: Bool
    /// A limit or offset makes membership depend on rank.
    let isWindowed: Bool
    let related: [Related]
    let relatedKeyNames: Set<String>
    /// Identifies the request for the cache.
    let fingerprint: String

    init(request: FetchRequest<Entity>, sectionKeyPath: PartialKeyPath<Entity>?, schema: Schema) throws {
        let name = Entity.entity.name
        guard let entity = schema.entity(named: name) else { throw FetchedResultsError.entityNotInSchema(entity: name) }
        entityName = name
        func names(_ keyPath: AnyKeyPath) -> [String] {
            (try? entity.properties(along: keyPath).map(\.name)) ?? [String(describing: keyPath)]
        }
        var sortPaths: [PartialKeyPath<Entity>] = []
        for (index, descriptor) in request.sortDescriptors.enumerated() {
            guard let keyPath = descriptor.keyPath else {
                throw FetchedResultsError.unsupportedSortDescriptor(index: index, description: String(describing: descriptor))
            }
            sortPaths.append(keyPath)
        }
        if let sectionKeyPath, sortPaths.first != sectionKeyPath {
            throw FetchedResultsError.sectionKeyNotFirstSortKey(
                sectionKeyPath: names(sectionKeyPath).joined(separator: "."),
                firstSortKeyPath: sortPaths.first.map { names($0).joined(separator: ".") })
        }
        sectioned = sectionKeyPath != nil
        isWindowed = request.fetchLimit > 0 || request.fetchOffset > 0
        ascending = request.ascending
        sortCount = sortPaths.count
        var extra: [PartialKeyPath<Entity>] = []
        var related: [Related] = []
        for path in sortPaths {
            let chain = try entity.properties(along: path)
            guard chain.count > 1, let hop = chain[0].declaredKeyPath as? PartialKeyPath<Entity> else { continue }
            if let existing = related.firstIndex(where: { extra[$0.column - sortPaths.count] == hop }) {
                related[existing].keyNames.insert(chain[1].name)
            } else {
                related.append(Related(column: sortPaths.count + extra.count, keyNames: [chain[1].name]))
                extra.append(hop)
            }
        }
        keyPaths = sortPaths + extra
        self.related = related
        relatedKeyNames = related.reduce(into: []) { $0.formUnion($1.keyNames) }
        fingerprint = ([entityName, String(describing: request.predicate.map { "\($0)" } ?? "-"),
                        request.stringFilters.isEmpty ? "" : "filters:\(request.stringFilters.count)",
                        "limit:\(request.fetchLimit)", "offset:\(request.fetchOffset)",
                        sectionKeyPath.map { names($0).joined(separator: ".") } ?? "-"]
                       + zip(sortPaths, ascending).map { "\(names($0.0).joined(separator: ".")):\($0.1)" }).joined(separator: "|")
    }

    /// The engine's row for one fetched object.
    func row(id: Int64, values: [StoreValue]) -> ResultsRow<Int64, RowKey, SectionKey> {
        let first = sectioned ? 1 : 0
        let section = sectioned ? SectionKey(values[0], ascending: ascending[0]) : SectionKey(.null, ascending: true)
        return ResultsRow(id: id, key: RowKey(values[first..<sortCount], ascending: ascending[first..<sortCount]), section: section)
    }
}
