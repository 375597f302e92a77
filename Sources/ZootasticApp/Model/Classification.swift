import FolioStore

/// A scientific classification; its `order` names an animal's section.
///
/// ```swift
/// let primates = Classification(context: context)
/// primates.order = "Primates"
/// ```
public final class Classification: ManagedObject {
    /// The class, e.g. "Mammalia".
    @Managed public var scientificClassification: String
    /// The order, e.g. "Primates": the section title in Zootastic.
    @Managed public var order: String
    /// The family, e.g. "Atelidae".
    @Managed public var family: String
    /// The animals classified so.
    @Managed public var animals: Set<Animal>

    /// Classification's entity.
    override public class var entity: EntityDescription {
        EntityDescription(
            Classification.self,
            properties: [
                .attribute(\Classification.scientificClassification, "scientificClassification", defaultValue: ""),
                .attribute(\Classification.order, "order", indexed: true, rules: [.notEmpty]),
                .attribute(\Classification.family, "family", defaultValue: ""),
                .toMany(\Classification.animals, "animals", inverse: \Animal.classification),
            ])
    }
}
