import FolioStore

/// A group for the replica partition test, holding items under each delete
/// rule: `kept` cascades, `listed` nullifies, `guarded` denies; `tagged` is
/// a many-to-many (nullify both ways).
public final class PartitionGroup: ManagedObject {
    @Managed public var name: String
    @Managed public var kept: Set<PartitionItem>
    @Managed public var listed: Set<PartitionItem>
    @Managed public var guarded: Set<PartitionItem>
    @Managed public var tagged: Set<PartitionItem>

    public override class var entity: EntityDescription {
        EntityDescription(
            PartitionGroup.self,
            properties: [
                .attribute(\PartitionGroup.name, "name", indexed: true),
                .toMany(\PartitionGroup.kept, "kept", inverse: \PartitionItem.keeper, deleteRule: .cascade),
                .toMany(\PartitionGroup.listed, "listed", inverse: \PartitionItem.lister, deleteRule: .nullify),
                .toMany(\PartitionGroup.guarded, "guarded", inverse: \PartitionItem.guardian, deleteRule: .deny),
                .toMany(\PartitionGroup.tagged, "tagged", inverse: \PartitionItem.tags),
            ])
    }
}

/// An item of the replica partition test; `shelf` is its controller's section.
public final class PartitionItem: ManagedObject {
    @Managed public var name: String
    @Managed public var value: Int
    @Managed public var shelf: String
    @Managed public var keeper: PartitionGroup?
    @Managed public var lister: PartitionGroup?
    @Managed public var guardian: PartitionGroup?
    @Managed public var tags: Set<PartitionGroup>

    public override class var entity: EntityDescription {
        EntityDescription(
            PartitionItem.self,
            properties: [
                .attribute(\PartitionItem.name, "name", indexed: true),
                .attribute(\PartitionItem.value, "value", defaultValue: 0),
                .attribute(\PartitionItem.shelf, "shelf", defaultValue: ""),
                .toOne(\PartitionItem.keeper, "keeper", inverse: \PartitionGroup.kept),
                .toOne(\PartitionItem.lister, "lister", inverse: \PartitionGroup.listed),
                .toOne(\PartitionItem.guardian, "guardian", inverse: \PartitionGroup.guarded),
                .toMany(\PartitionItem.tags, "tags", inverse: \PartitionGroup.tagged),
            ])
    }
}

/// The schema of the replica partition test, and a canonical dump of a
/// store's contents (by name, so any two stores compare line by line).
///
///     let lines = try PartitionTestSchema.dump(container.newBackgroundContext())
public enum PartitionTestSchema {
    public static func make() -> Schema { Schema([PartitionGroup.self, PartitionItem.self]) }

    /// One line a group (`g NAME`) and an item (`i NAME value shelf keeper lister guardian tags`), sorted.
    public static func dump(_ context: ObjectContext) throws -> [String] {
        try context.performAndWait { context in
            let groups = try context.fetch(FetchRequest<PartitionGroup>()).map { "g \($0.name)" }
            let items = try context.fetch(FetchRequest<PartitionItem>()).map { item in
                [
                    "i", item.name, String(item.value), item.shelf, item.keeper?.name ?? "-", item.lister?.name ?? "-",
                    item.guardian?.name ?? "-", item.tags.isEmpty ? "-" : item.tags.map(\.name).sorted().joined(separator: "+"),
                ].joined(separator: " ")
            }
            return (groups + items).sorted()
        }
    }
}
