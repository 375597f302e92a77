extension ObjectContext {
    /// The properties each key path of a request's predicate and string
    /// filters goes through from the fetched entity, as the translation
    /// resolved them: `$0.classification?.order == "X"` reads
    /// `[classification, order]`. A caller that follows changes learns from
    /// it which related objects and keys can change a row's membership.
    /// Key paths read inside `contains(where:)` start at the members and are
    /// left out.
    ///
    ///     try context.propertiesRead(byFiltersOf: request).map { $0.map(\.name) }   // [["classification", "order"]]
    package func propertiesRead<T: ManagedObject>(byFiltersOf request: FetchRequest<T>) throws -> [[PropertyDescription]] {
        let entity = schema.entity(for: T.self)
        try request.checkEntityName(entity)
        var chains: [[PropertyDescription]] = []
        if let predicate = request.predicate {
            let builder = SQLQueryBuilder(root: entity, dialect: coordinator.dialect)
            _ = try PredicateSupport.condition(predicate, builder)
            chains += builder.chainsRead
        }
        for filter in request.stringFilters {
            for keyPath in filter.keyPaths { chains.append(try entity.resolve(keyPath: keyPath)) }
        }
        return chains
    }
}
