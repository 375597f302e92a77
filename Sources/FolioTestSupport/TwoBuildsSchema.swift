import FolioStore

/// An item as an older build of an app declares it: a name only.
public final class OlderBuildItem: ManagedObject {
    @Managed public var name: String
    override public class var entity: EntityDescription {
        EntityDescription(OlderBuildItem.self, name: "Item", properties: [.attribute(\OlderBuildItem.name, "name")])
    }
}

/// The same item in a newer build: a shelf with a default, added without raising the version.
public final class NewerBuildItem: ManagedObject {
    @Managed public var name: String
    @Managed public var shelf: String
    override public class var entity: EntityDescription {
        EntityDescription(
            NewerBuildItem.self, name: "Item",
            properties: [
                .attribute(\NewerBuildItem.name, "name"),
                .attribute(\NewerBuildItem.shelf, "shelf", defaultValue: "unsorted"),
            ])
    }
}

/// Two builds of one app, "Inventory", at the same schema version.
///
///     let older = TwoBuildsSchema.older, newer = TwoBuildsSchema.newer
public enum TwoBuildsSchema {
    public static var older: Schema { Schema(name: "Inventory", version: 1, [OlderBuildItem.self]) }
    public static var newer: Schema { Schema(name: "Inventory", version: 1, [NewerBuildItem.self]) }
}
