import FolioStore

/// One section of a fetched results controller: name, identity, index
/// title, count, and its objects (read from the controller on access, so a
/// section value is valid until the results next change). It holds its
/// controller weakly.
///
/// ```swift
/// for section in controller.sections ?? [] {
///     print(section.name, section.indexTitle ?? "", section.numberOfObjects)
/// }
/// ```
public struct FetchedResultsSection: FetchedResultsSectionInfo {
    /// The section's identity: its key, nil kept apart from "" (which share the name "").
    public let identifier: SectionIdentifier
    /// The title for the section index strip.
    public let indexTitle: String?
    /// The number of objects in the section.
    public let numberOfObjects: Int
    let index: Int
    private(set) weak var controller: AnyFetchedResultsController?

    init(identifier: SectionIdentifier, indexTitle: String?, numberOfObjects: Int, index: Int, controller: AnyFetchedResultsController?) {
        self.identifier = identifier
        self.indexTitle = indexTitle
        self.numberOfObjects = numberOfObjects
        self.index = index
        self.controller = controller
    }

    /// The section key's value as text ("" for nil, and when unsectioned).
    ///
    /// ```swift
    /// controller.sections?.map(\.name)   // ["Chiroptera", "Primates"]
    /// ```
    public var name: String { identifier.name }

    /// The section's objects in order, materialised on access; nil for a
    /// deleted section or once its controller is gone.
    ///
    /// ```swift
    /// let animals = controller.sections?[0].objects as? [Animal]
    /// ```
    /// - Complexity: O(m log n) for m objects.
    public var objects: [Any]? {
        guard let controller, index < controller.shownSectionCount else { return nil }
        return controller.anyObjects(inSection: index)
    }
}
