import FolioStore

extension FetchedResultsController {
    /// Core Data's form, the section key named by a dotted string
    /// (`"classification.order"`), checked against the schema at
    /// `performFetch()`, which throws an error naming the key when the
    /// entity has no such property.
    ///
    /// ```swift
    /// let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context,
    ///                                           sectionNameKeyPath: "classification.order", cacheName: nil)
    /// ```
    @_disfavoredOverload
    public convenience init(
        fetchRequest: FetchRequest<Entity>, managedObjectContext context: ObjectContext,
        sectionNameKeyPath: String?, cacheName: String? = nil
    ) {
        self.init(
            fetchRequest: fetchRequest, managedObjectContext: context,
            sectionNameKeyPath: sectionNameKeyPath.map { NamedKeyPath.make($0, on: Entity.self) }, cacheName: cacheName)
    }
}
