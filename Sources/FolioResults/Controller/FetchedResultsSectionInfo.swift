/// One section of a fetched results controller's results, as Core Data's
/// `NSFetchedResultsSectionInfo`: its name, index title, count and objects.
/// The section infos a controller gives (``FetchedResultsSection``) conform.
///
/// ```swift
/// func controller(_ controller: AnyFetchedResultsController, didChange sectionInfo: FetchedResultsSectionInfo,
///                 atSectionIndex sectionIndex: Int, for type: ResultsChangeType) {
///     print(type, sectionInfo.name)
/// }
/// ```
@MainActor
public protocol FetchedResultsSectionInfo {
    /// The section key's value as text ("" for nil, and when unsectioned).
    var name: String { get }
    /// The title for the section index strip.
    var indexTitle: String? { get }
    /// The number of objects in the section.
    var numberOfObjects: Int { get }
    /// The section's objects in order; nil for a section that was deleted.
    var objects: [Any]? { get }
}
