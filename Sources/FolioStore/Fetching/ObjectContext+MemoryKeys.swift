extension ObjectContext {
    /// What ``fetchKeys(_:keyPaths:restrictedTo:)`` gives for `ids`, told
    /// from the objects this context holds instead of the store, for when
    /// the store cannot be read (a server away, a file another connection
    /// holds locked): each object held with every key loaded maps to its
    /// key values if it matches the request, or to nil if it does not (or
    /// is deleted here); the others are left out, since only the store
    /// knows them. The request's limit and offset are not applied.
    ///
    ///     let known = context.fetchKeysInMemory(request, keyPaths: [\Animal.commonName], restrictedTo: ids)
    package func fetchKeysInMemory<T: ManagedObject>(
        _ request: FetchRequest<T>, keyPaths: [PartialKeyPath<T>],
        restrictedTo ids: [ObjectID]
    ) -> [ObjectID: [StoreValue]?] {
        let e = schema.entity(for: T.self)
        guard let chains = try? keyPaths.map({ try e.resolve(keyPath: $0) }) else { return [:] }
        var known: [ObjectID: [StoreValue]?] = [:]
        for id in ids {
            guard id.entityName == e.name, let o = registry[id], o.belongs(to: self) else { continue }
            if o.isDeletedFlag {
                known[id] = .some(nil)
                continue
            }
            guard !o.isFault, chains.allSatisfy({ isLoaded(o, through: $0) }), let t = o as? T,
                let matching = try? request.predicate.map({ try $0.evaluate(t) }) ?? true
            else { continue }
            let values: [StoreValue]? =
                matching && request.stringFilters.allSatisfy({ matches($0, o) })
                ? chains.map { value(of: o, through: $0) } : nil
            known[id] = .some(values)
        }
        return known
    }

    /// Whether every object a key path passes through is in memory, so that
    /// reading its value needs no store.
    private func isLoaded(_ object: ManagedObject, through chain: [PropertyDescription]) -> Bool {
        var current = object
        for p in chain.dropLast() {
            guard !current.isFault else { return false }
            guard let next = current.ones[p.slot] else { return true }
            guard let o = registry[next] else { return false }
            current = o
        }
        return !current.isFault
    }
}
