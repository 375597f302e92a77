import FolioStore

/// An item for the related-key tests, with keys read through three to-one
/// relationships: its kind (whose deletion is denied while items point at
/// it), its shelf (nullified) and its parent (the same entity, nullified).
/// Kinds and shelves get the same row IDs, so a change to one must not be
/// taken for a change to the other.
final class LinkedItem: ManagedObject {
    @Managed var name: String
    @Managed var group: Int
    @Managed var kind: LinkedKind?
    @Managed var shelf: LinkedShelf?
    @Managed var parent: LinkedItem?
    @Managed var children: Set<LinkedItem>

    override class var entity: EntityDescription {
        EntityDescription(
            LinkedItem.self,
            properties: [
                .attribute(\LinkedItem.name, "name", defaultValue: ""),
                .attribute(\LinkedItem.group, "group", defaultValue: 0),
                .toOne(\LinkedItem.kind, "kind", inverse: \LinkedKind.items),
                .toOne(\LinkedItem.shelf, "shelf", inverse: \LinkedShelf.items),
                .toOne(\LinkedItem.parent, "parent", inverse: \LinkedItem.children),
                .toMany(\LinkedItem.children, "children", inverse: \LinkedItem.parent, deleteRule: .nullify),
            ])
    }
}

/// A kind, as a classification is to animals: its `order` sections items.
final class LinkedKind: ManagedObject {
    @Managed var order: String
    @Managed var rank: Int
    @Managed var items: Set<LinkedItem>

    override class var entity: EntityDescription {
        EntityDescription(
            LinkedKind.self,
            properties: [
                .attribute(\LinkedKind.order, "order", defaultValue: ""),
                .attribute(\LinkedKind.rank, "rank", defaultValue: 0),
                .toMany(\LinkedKind.items, "items", inverse: \LinkedItem.kind, deleteRule: .deny),
            ])
    }
}

/// A shelf whose `label` sorts items; deleting it leaves its items shelfless.
final class LinkedShelf: ManagedObject {
    @Managed var label: String
    @Managed var items: Set<LinkedItem>

    override class var entity: EntityDescription {
        EntityDescription(
            LinkedShelf.self,
            properties: [
                .attribute(\LinkedShelf.label, "label", defaultValue: ""),
                .toMany(\LinkedShelf.items, "items", inverse: \LinkedItem.shelf, deleteRule: .nullify),
            ])
    }
}

enum LinkedTestSchema {
    static func make() -> Schema { Schema([LinkedItem.self, LinkedKind.self, LinkedShelf.self]) }
}
