extension PersistentContainer {
    /// Makes a seeded store at `path` unless one is there: the schema and
    /// the seed are built in memory, saved, and the finished file placed in
    /// one step (``StoreFile/place(_:at:for:busyTimeout:)``). Returns whether this call made it.
    @discardableResult
    static func createStoreIfNeeded(
        at path: String, schema: Schema, busyTimeout: Double,
        seed: ((ObjectContext) throws -> Void)?
    ) throws -> Bool {
        if case .folio = try StoreFile.inspect(path, for: schema) { return false }
        let builder = try StoreCoordinator(schema: schema, path: nil, busyTimeoutMilliseconds: Int32(busyTimeout * 1000))
        let context = ObjectContext(coordinator: builder, delivery: .caller)
        if let seed {
            try seed(context)
            try context.save()
        }
        let image = try builder.withBackend { backend in
            guard let sqlite = backend as? SQLiteBackend else { preconditionFailure("new stores are built in SQLite") }
            return try sqlite.storeImage()
        }
        return try StoreFile.place(image, at: path, for: schema, busyTimeout: busyTimeout)
    }

    /// Saves `seed` into a server's store unless it was saved before, in one
    /// write transaction that also records it: a kill leaves it unsaved (the
    /// next open saves it), and of containers opening at once one saves it.
    static func seedOnce(_ coordinator: StoreCoordinator, _ seed: (ObjectContext) throws -> Void) throws {
        // Used only here, on the opening thread, as the SQLite seed context is.
        let context = ObjectContext(coordinator: coordinator, delivery: .caller)
        try context.performWrite {
            guard try !context.withStore({ try $0.hasBeenSeeded() }) else { return }
            try seed(context)
            try context.withStore { try $0.recordSeeded() }
        }
    }
}
