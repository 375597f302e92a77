import FolioStore

/// One section of a fetched results controller, as Core Data's
/// `NSFetchedResultsSectionInfo`: name, index title, count and objects.
///
/// ```swift
/// for section in controller.sections ?? [] {
///     print(section.name, section.indexTitle ?? "", section.numberOfObjects)
/// }
/// ```
public struct FetchedResultsSection<Entity: ManagedObject> {
    /// The section key path's value as text ("" for nil; "" when unsectioned).
    public let name: String
    /// The title for the section index strip.
    public let indexTitle: String?
    /// The number of objects in the section.
    public let numberOfObjects: Int
    let index: Int
    let controller: FetchedResultsController<Entity>?

    /// The section's objects in order, materialised on access.
    ///
    /// ```swift
    /// controller.sections?[0].objects.map(\.name)
    /// ```
    /// - Complexity: O(m log n) for m objects.
    public var objects: [Entity] {
        guard let controller, index < controller.engine.numberOfSections else { return [] }
        return controller.objects(inSection: index)
    }
}
