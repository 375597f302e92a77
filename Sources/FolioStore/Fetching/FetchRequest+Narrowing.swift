extension StringFilter {
    /// Whether every text this filter matches is matched by `other` too
    /// (same attributes and options; "Ceres" contains "ere", so
    /// `.contains("ere")` implies `.contains("e")`), judged on the folded
    /// needles the store compares.
    ///
    ///     StringFilter(\Planet.name, .contains("ur")).implies(StringFilter(\Planet.name, .contains("u")))   // true
    package func implies(_ other: StringFilter) -> Bool {
        guard keyPaths == other.keyPaths, options == other.options else { return false }
        switch (match, other.match) {
        case (.equals, _), (_, .contains), (.beginsWith, .beginsWith), (.endsWith, .endsWith):
            // A text held by this needle holds the other's wherever this one holds it.
            return TextFolding.matches(foldedNeedle, other.match, needle: other.foldedNeedle)
        default:
            return false
        }
    }
}

extension ObjectContext {
    /// Whether every object `request` matches is matched by `wider` too:
    /// the same window and pending-changes rule, `wider`'s predicate (by its
    /// translation and bound values) or none, and each of `wider`'s string
    /// filters implied by one of `request`'s. False when unsure. A search
    /// that narrows as the user types reads only the rows it still shows.
    ///
    ///     try context.narrows(typedTwoLetters, typedOne)   // true
    package func narrows<T: ManagedObject>(_ request: FetchRequest<T>, _ wider: FetchRequest<T>) throws -> Bool {
        guard request.fetchLimit == wider.fetchLimit, request.fetchOffset == wider.fetchOffset,
            request.includesPendingChanges == wider.includesPendingChanges,
            wider.stringFilters.allSatisfy({ filter in request.stringFilters.contains { $0.implies(filter) } })
        else { return false }
        guard let widerPredicate = wider.predicate else { return true }
        guard let predicate = request.predicate else { return false }
        let e = schema.entity(for: T.self)
        let mine = SQLQueryBuilder(root: e, dialect: coordinator.dialect), theirs = SQLQueryBuilder(root: e, dialect: coordinator.dialect)
        return try PredicateSupport.condition(predicate, mine) == PredicateSupport.condition(widerPredicate, theirs)
            && mine.bindings == theirs.bindings
    }
}
