import FolioResults
import FolioStore

extension ListedTable {
    /// The table a fetched results controller shows: its sections (names as
    /// headers when sectioned) and a row per object made by `row`.
    ///
    /// ```swift
    /// let table = ListedTable(results: controller) { planet in
    ///     .init(id: "\(planet.objectID.rowID)", text: planet.name, fields: [("name", .string(planet.name))])
    /// }
    /// ```
    /// - Complexity: O(n log n), materialising every object.
    public init<Entity: ManagedObject>(results: FetchedResultsController<Entity>, row: (Entity) -> Row) {
        let sections = results.sections ?? []
        self.init(sections: sections.map { section in
            Section(name: section.name, rows: section.objects.map(row))
        })
    }
}
