import FolioAppSupport
import FolioStore
import Foundation

/// A planet of the Planets app: its name and its place in the saved order.
///
/// ```swift
/// let pluto = Planet(context: context)
/// pluto.name = "Pluto"
/// pluto.position = 9
/// try context.save()
/// ```
public final class Planet: ManagedObject {
    /// The name shown in the row; unique.
    @Managed public var name: String
    /// The row's place in the list (0 first); reordering rewrites it.
    @Managed public var position: Int

    /// Planet's entity: a unique, non-empty name and an indexed position.
    override public class var entity: EntityDescription {
        EntityDescription(
            Planet.self,
            properties: [
                .attribute(\Planet.name, "name", unique: true, rules: [.notEmpty]),
                .attribute(\Planet.position, "position", defaultValue: 0, indexed: true),
            ])
    }

    /// The schema of a Planets store.
    public static let schema = Schema(name: "Planets", [Planet.self])

    /// The list's request: by position, ties by name.
    public static var listRequest: FetchRequest<Planet> {
        FetchRequest(sortBy: [SortDescriptor(\Planet.position), SortDescriptor(\Planet.name)])
    }
}
