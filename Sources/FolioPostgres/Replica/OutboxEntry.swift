import FolioStore
import Foundation

/// One local save as the replica's outbox keeps it until the server has it:
/// every row it wrote with the values it wrote, every changed key with its
/// value before the save (the merge policies decide by it), and the
/// relationship rows. IDs are permanent (a replica hands out its own, see
/// ``ReplicaIDs``), so the save is replayed on the server as it was made.
struct OutboxEntry: Codable {
    struct Insert: Codable {
        var entity: String
        var id: Int64
        /// Attributes and to-ones (as row IDs) by name.
        var values: [String: ReplicaValue]
    }
    struct Update: Codable {
        var entity: String
        var id: Int64
        var keys: [String]
        /// The values this save wrote, in the order of `keys`.
        var new: [ReplicaValue]
        /// The values the row held before it.
        var old: [ReplicaValue]
        /// The row's server version as last seen here when the save was made (see ``ReplicaFile/base(of:seen:)``);
        /// nil in an entry saved before entries kept it.
        var seen: Int64? = nil
    }
    struct Delete: Codable {
        var entity: String
        var id: Int64
        /// As an update's.
        var seen: Int64? = nil
    }
    /// A many-to-many member added or removed: `property` of `entity`, seen from `owner`.
    struct Link: Codable {
        var entity: String
        var property: String
        var owner: Int64
        var member: Int64
    }
    /// The order of an ordered to-many's members.
    struct Order: Codable {
        var entity: String
        var property: String
        var owner: Int64
        var members: [Int64]
    }

    var inserts: [Insert] = []
    var updates: [Update] = []
    var deletes: [Delete] = []
    var adds: [Link] = []
    var removes: [Link] = []
    var orders: [Order] = []
    /// The save's history text (what readers are told changed).
    var history = ""

    /// Every row the entry writes, as (entity, id).
    var rows: [RowKey] {
        inserts.map { RowKey($0.entity, $0.id) } + updates.map { RowKey($0.entity, $0.id) } + deletes.map { RowKey($0.entity, $0.id) }
    }

}

/// A row of an entity's table.
struct RowKey: Hashable, Comparable {
    var entity: String
    var id: Int64

    init(_ entity: String, _ id: Int64) {
        self.entity = entity
        self.id = id
    }

    static func < (a: RowKey, b: RowKey) -> Bool { (a.entity, a.id) < (b.entity, b.id) }
}

extension OutboxEntry {
    /// The entry of `batch`, whose new objects got `permanent`; `old` reads
    /// a row's current values of some columns (before the save writes them)
    /// and its server version as last seen here (its update's `seen`).
    init(
        _ batch: SaveBatch, permanent: [ObjectID], history: String,
        old: (EntityDescription, Int64, [String]) throws -> (values: [StoreValue], seen: Int64)
    ) throws {
        var map: [ObjectID: Int64] = [:]
        for (insert, id) in zip(batch.inserts, permanent) { map[insert.id] = id.rowID }
        func row(_ id: ObjectID) -> Int64 { id.isTemporary ? map[id] ?? id.rowID : id.rowID }
        func ref(_ id: ObjectID?) -> ReplicaValue { ReplicaValue(id.map { .integer(row($0)) } ?? .null) }
        for (insert, id) in zip(batch.inserts, permanent) {
            var values: [String: ReplicaValue] = [:]
            for (p, v) in zip(insert.entity.attributes, insert.attrs) { values[p.name] = ReplicaValue(v) }
            for (p, o) in zip(insert.entity.toOnes, insert.ones) { values[p.name] = ref(o) }
            inserts.append(Insert(entity: insert.entity.name, id: id.rowID, values: values))
        }
        for u in batch.updates where !(u.attrs.isEmpty && u.ones.isEmpty) {
            let keys = u.attrs.map(\.0.name) + u.ones.map(\.0.name)
            let new = u.attrs.map { ReplicaValue($0.1) } + u.ones.map { ref($0.1) }
            let before = try old(u.entity, u.id.rowID, keys)
            updates.append(
                Update(
                    entity: u.entity.name, id: u.id.rowID, keys: keys, new: new, old: before.values.map(ReplicaValue.init),
                    seen: before.seen))
        }
        deletes = batch.deletes.map { Delete(entity: $0.entity.name, id: $0.id.rowID) }
        func link(_ m: SaveBatch.Membership) -> Link {
            Link(entity: m.owner.entityName, property: m.property.name, owner: row(m.owner), member: row(m.member))
        }
        adds = batch.joinAdds.map(link)
        removes = batch.joinRemoves.map(link)
        orders = batch.orders.map {
            Order(
                entity: $0.owner.entityName, property: $0.property.name, owner: row($0.owner),
                members: $0.members.map(row))
        }
        self.history = history
    }
}
