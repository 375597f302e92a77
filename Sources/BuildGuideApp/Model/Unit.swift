import FolioStore

/// One step of a guide's build order: a unit or structure from its race's catalogue.
///
/// ```swift
/// let step = Unit(context: context)
/// step.name = "Pylon"
/// step.type = "Structure"
/// guide.units.append(step)
/// ```
public final class Unit: ManagedObject {
    /// The unit's name, as in the catalogue.
    @Managed public var name: String
    /// "Unit", "Structure" or "Units", as in the catalogue.
    @Managed public var type: String
    /// The guide whose build order holds it.
    @Managed public var guide: Guide?

    /// Unit's entity.
    override public class var entity: EntityDescription {
        EntityDescription(
            Unit.self,
            properties: [
                .attribute(\Unit.name, "name", rules: [.notEmpty]),
                .attribute(\Unit.type, "type", defaultValue: "Unit"),
                .toOne(\Unit.guide, "guide", inverse: \Guide.units),
            ])
    }
}
