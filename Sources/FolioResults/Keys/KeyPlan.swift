import FolioStore

/// What the controller reads for each row: the sort key paths (the first is
/// the section key when sectioned); and, for sort keys, a predicate or
/// string filters that go through a to-one relationship, that relationship
/// (its row ID) for every object of the entity, so that a change to the
/// related object finds the objects that depend on it, members or not.
struct KeyPlan<Entity: ManagedObject> {
    /// One to-one relationship that keys or filters read through.
    struct Related {
        /// The relationship's index in `relatedKeyPaths`.
        var column: Int
        /// The related entity's name.
        var entity: String
        /// The related entity's keys whose change can move dependents; nil
        /// when any change can (a key path goes on through a to-many).
        var keyNames: Set<String>?
    }

    let entityName: String
    let keyPaths: [PartialKeyPath<Entity>]
    /// The to-one relationships followed for related changes.
    let relatedKeyPaths: [PartialKeyPath<Entity>]
    let ascending: [Bool]
    let sortCount: Int
    let sectioned: Bool
    /// A limit or offset makes membership depend on rank.
    let isWindowed: Bool
    let related: [Related]
    /// Identifies the request for the cache.
    let fingerprint: String
    /// The sort keys' attribute names when every key is an attribute of the
    /// entity itself and the request has no predicate or filters: then an
    /// object with unsaved changes is a member with these values, read from it.
    let plainAttributes: [String]?
    /// Their slots, to read them from an object without a lookup by name.
    let plainSlots: [Int]?

    init(request: FetchRequest<Entity>, sectionKeyPath: PartialKeyPath<Entity>?, context: ObjectContext) throws {
        let schema = context.schema
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
        // Every key resolves first, so a key the schema lacks is named as such.
        for path in sortPaths + (sectionKeyPath.map { [$0] } ?? []) { _ = try entity.properties(along: path) }
        // Compared by the properties read, so a string key and a key path to the same property agree.
        if let sectionKeyPath, sortPaths.first.map({ names($0) != names(sectionKeyPath) }) ?? true {
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
        // Every key path read from the entity that goes through a to-one: the sort keys' and the
        // filters' (as the store resolved them when translating the request), each a first hop and the key read there.
        let filterChains = request.predicate == nil && request.stringFilters.isEmpty ? [] : try context.propertiesRead(byFiltersOf: request)
        let chains = try sortPaths.map { try entity.properties(along: $0) }
        for chain in chains + filterChains {
            guard chain.count > 1, chain[0].isToOne, let hop = chain[0].declaredKeyPath as? PartialKeyPath<Entity> else { continue }
            let keyName: String? = chain[1].isToMany ? nil : chain[1].name
            if let existing = related.firstIndex(where: { extra[$0.column] == hop }) {
                if let keyName { related[existing].keyNames?.insert(keyName) } else { related[existing].keyNames = nil }
            } else {
                related.append(Related(column: extra.count, entity: chain[0].target.name, keyNames: keyName.map { [$0] }))
                extra.append(hop)
            }
        }
        keyPaths = sortPaths
        plainAttributes =
            request.predicate == nil && request.stringFilters.isEmpty && !isWindowed
                && chains.allSatisfy({ $0.count == 1 && $0[0].isAttribute }) ? chains.map { $0[0].name } : nil
        plainSlots = plainAttributes == nil ? nil : chains.map { $0[0].attributeSlot! }
        relatedKeyPaths = extra
        self.related = related
        fingerprint =
            ([
                entityName, String(describing: request.predicate.map { "\($0)" } ?? "-"),
                request.stringFilters.isEmpty ? "" : "filters:\(request.stringFilters)",
                "limit:\(request.fetchLimit)", "offset:\(request.fetchOffset)",
                sectionKeyPath.map { names($0).joined(separator: ".") } ?? "-",
            ]
            + zip(sortPaths, ascending).map { "\(names($0.0).joined(separator: ".")):\($0.1)" }).joined(separator: "|")
    }

    /// The engine's row for one fetched object.
    func row(id: Int64, values: [StoreValue]) -> ResultsRow<Int64, RowKey, SectionKey> {
        let first = sectioned ? 1 : 0
        let section = sectioned ? SectionKey(values[0], ascending: ascending[0]) : SectionKey(.null, ascending: true)
        return ResultsRow(id: id, key: RowKey(values[first..<sortCount], ascending: ascending[first..<sortCount]), section: section)
    }

    /// How to read the keys from an object with unsaved changes, when
    /// ``plainSlots`` allows it.
    var objectKeys: ObjectKeys? {
        plainSlots.map { ObjectKeys(slots: $0, ascending: ascending, sortCount: sortCount, sectioned: sectioned) }
    }
}

/// The sort and section keys of a request whose keys are all attributes of
/// the entity itself (see ``KeyPlan/plainSlots``), read from objects in
/// memory. Plain values, so that several threads can read a big batch.
struct ObjectKeys: Sendable {
    let slots: [Int]
    let ascending: [Bool]
    let sortCount: Int
    let sectioned: Bool

    /// The engine's row for a loaded object: the usual one or two keys make no array.
    func row(id: Int64, object: ManagedObject) -> ResultsRow<Int64, RowKey, SectionKey> {
        let first = sectioned ? 1 : 0
        let section =
            sectioned ? SectionKey(object.attributeValue(atSlot: slots[0]), ascending: ascending[0]) : SectionKey(.null, ascending: true)
        let key =
            switch sortCount - first {
            case 0: RowKey(.empty, lead: RowKey.noLead)
            case 1: RowKey(one: object.attributeValue(atSlot: slots[first]), ascending: ascending[first])
            default: RowKey(slots[first...].map { object.attributeValue(atSlot: $0) }[...], ascending: ascending[first..<sortCount])
            }
        return ResultsRow(id: id, key: key, section: section)
    }
}
