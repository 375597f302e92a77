import FolioStore
import Foundation

/// An animal: a subtitle row in Zootastic (common name, habitat), in the
/// section of its classification's order.
///
/// ```swift
/// let howler = Animal(context: context)
/// howler.commonName = "Mantled Howler"
/// howler.classification = primates
/// ```
public final class Animal: ManagedObject {
    /// The row's title.
    @Managed public var commonName: String
    /// The row's subtitle.
    @Managed public var habitat: String
    /// Its classification; its order is the section.
    @Managed public var classification: Classification?
    /// The zoos that keep it.
    @Managed public var zoos: Set<Zoo>

    /// Animal's entity.
    override public class var entity: EntityDescription {
        EntityDescription(
            Animal.self,
            properties: [
                .attribute(\Animal.commonName, "commonName", indexed: true, rules: [.notEmpty]),
                .attribute(\Animal.habitat, "habitat", defaultValue: ""),
                .toOne(\Animal.classification, "classification", inverse: \Classification.animals),
                .toMany(\Animal.zoos, "zoos", inverse: \Zoo.animals),
            ])
    }

    /// The schema of a Zootastic store.
    public static let schema = Schema(name: "Zootastic", [Zoo.self, Classification.self, Animal.self])

    /// The main list: by classification order, then common name.
    public static var listRequest: FetchRequest<Animal> {
        FetchRequest(sortBy: [SortDescriptor(\Animal.classification?.order), SortDescriptor(\Animal.commonName)])
    }

    /// The section key path of the main list.
    public static var sectionKeyPath: PartialKeyPath<Animal> { \Animal.classification?.order }
}
