import FolioStore

/// A Starcraft race: "Protoss", "Terran" or "Zerg". Its unit catalogue is
/// fixed (``SampleData/races``); guides point at it.
///
/// ```swift
/// let zerg = try BuildGuideStore.race(named: "Zerg", in: context)
/// ```
public final class Race: ManagedObject {
    /// The race's name.
    @Managed public var name: String
    /// The guides for this race.
    @Managed public var guides: Set<Guide>

    /// Race's entity.
    override public class var entity: EntityDescription {
        EntityDescription(
            Race.self,
            properties: [
                .attribute(\Race.name, "name", unique: true, rules: [.notEmpty]),
                .toMany(\Race.guides, "guides", inverse: \Guide.race),
            ])
    }
}
