import FolioStore
import Foundation

/// An item for results tests: sectioned by `group`, by its tag's `rank` or
/// by its optional `shelf` (where nil and "" are different sections),
/// sorted by `name` or `score`, filtered by `visible`.
public final class ResultsItem: ManagedObject {
    @Managed public var name: String
    @Managed public var group: Int
    @Managed public var score: Int
    @Managed public var visible: Bool
    @Managed public var tag: ResultsTag?
    @Managed public var shelf: String?

    /// The item's properties: name, group, score, visible, tag, shelf.
    public override class var entity: EntityDescription {
        EntityDescription(
            ResultsItem.self,
            properties: [
                .attribute(\ResultsItem.name, "name", defaultValue: ""),
                .attribute(\ResultsItem.group, "group", defaultValue: 0, indexed: true),
                .attribute(\ResultsItem.score, "score", defaultValue: 0),
                .attribute(\ResultsItem.visible, "visible", defaultValue: true),
                .toOne(\ResultsItem.tag, "tag", inverse: \ResultsTag.items),
                .attribute(\ResultsItem.shelf, "shelf"),
            ])
    }
}

/// A tag whose `rank` orders and sections the items that point at it.
public final class ResultsTag: ManagedObject {
    @Managed public var rank: Int
    @Managed public var label: String
    @Managed public var items: Set<ResultsItem>

    /// The tag's properties: rank, label, items.
    public override class var entity: EntityDescription {
        EntityDescription(
            ResultsTag.self,
            properties: [
                .attribute(\ResultsTag.rank, "rank", defaultValue: 0),
                .attribute(\ResultsTag.label, "label", defaultValue: ""),
                .toMany(\ResultsTag.items, "items", inverse: \ResultsItem.tag),
            ])
    }
}

/// The schema of the results tests.
///
///     let container = try PersistentContainer(schema: ResultsTestSchema.make(), path: dir.path("results.sqlite"))
public enum ResultsTestSchema {
    /// A new schema with ``ResultsItem`` and ``ResultsTag``.
    public static func make() -> Schema { Schema([ResultsItem.self, ResultsTag.self]) }
}
