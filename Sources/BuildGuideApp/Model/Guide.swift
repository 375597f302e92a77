import FolioStore
import Foundation

/// A build guide: a name, a race, and its build order — an ordered to-many
/// of ``Unit`` entries (the same unit may appear more than once).
///
/// ```swift
/// let guide = Guide(context: context)
/// guide.name = "Cannon Rush"
/// guide.race = protoss
/// ```
public final class Guide: ManagedObject {
    /// The guide's name.
    @Managed public var name: String
    /// Its race; nil until one is chosen.
    @Managed public var race: Race?
    /// The build order, first step first.
    @Managed public var units: [Unit]

    /// Guide's entity; deleting a guide deletes its build order.
    override public class var entity: EntityDescription {
        EntityDescription(
            Guide.self,
            properties: [
                .attribute(\Guide.name, "name", indexed: true, rules: [.notEmpty]),
                .toOne(\Guide.race, "race", inverse: \Race.guides),
                .toMany(\Guide.units, "units", inverse: \Unit.guide, deleteRule: .cascade),
            ])
    }

    /// The schema of a BuildGuide store.
    public static let schema = Schema(name: "BuildGuide", [Race.self, Guide.self, Unit.self])

    /// The guide list: by name.
    public static var listRequest: FetchRequest<Guide> {
        FetchRequest(sortBy: [SortDescriptor(\Guide.name)])
    }
}
