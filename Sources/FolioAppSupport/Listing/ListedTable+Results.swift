import FolioResults
import FolioStore

extension ListedTable {
    /// The table a fetched results controller shows: its sections (names as
    /// headers when sectioned) and a row per object made by `row`. A table
    /// without rows has no sections, sectioned or not, so every app's empty
    /// `list --json` is `[]`.
    ///
    /// ```swift
    /// let table = ListedTable(results: controller) { planet in
    ///     .init(id: "\(planet.objectID.rowID)", text: planet.name, fields: [("name", .string(planet.name))])
    /// }
    /// ```
    /// - Complexity: O(n log n), materialising every object.
    @MainActor
    public init<Entity: ManagedObject>(results: FetchedResultsController<Entity>, row: (Entity) -> Row) {
        let sections = results.sections ?? []
        self.init(
            sections: sections.indices.compactMap { index in
                // An unsectioned controller keeps one section even when it is empty.
                sections[index].numberOfObjects == 0
                    ? nil : Section(name: sections[index].name, rows: results.objects(inSection: index).map(row))
            })
    }

    /// The table that a fresh controller over `request` shows — the same
    /// request and section key path an app's screen uses.
    ///
    /// ```swift
    /// let table = try ListedTable(request: Planet.listRequest, context: context) { planet in ... }
    /// ```
    /// - Complexity: O(n log n).
    @MainActor
    public init<Entity: ManagedObject>(
        request: FetchRequest<Entity>, context: ObjectContext,
        sectionNameKeyPath: PartialKeyPath<Entity>? = nil, row: (Entity) -> Row
    ) throws {
        let results = FetchedResultsController(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: sectionNameKeyPath)
        try results.performFetch()
        self.init(results: results, row: row)
    }
}
