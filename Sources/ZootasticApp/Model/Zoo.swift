import FolioStore

/// A zoo: its name, where it is, and the animals it keeps.
///
/// ```swift
/// let zoo = Zoo(context: context)
/// zoo.name = "San Diego Zoo"
/// zoo.location = "San Diego, CA"
/// ```
public final class Zoo: ManagedObject {
    /// The zoo's name.
    @Managed public var name: String
    /// Its city and state.
    @Managed public var location: String
    /// The animals it keeps (many-to-many).
    @Managed public var animals: Set<Animal>

    /// Zoo's entity.
    override public class var entity: EntityDescription {
        EntityDescription(
            Zoo.self,
            properties: [
                .attribute(\Zoo.name, "name", unique: true, rules: [.notEmpty]),
                .attribute(\Zoo.location, "location", defaultValue: ""),
                .toMany(\Zoo.animals, "animals", inverse: \Animal.zoos),
            ])
    }
}
