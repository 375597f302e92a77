import Foundation

// How a save's many writes reach SQLite cheaply: one prepared statement per
// entity and set of changed columns, rows in row ID order, and a page cache
// sized for the pages a big save touches.
extension SQLiteBackend {
    /// Saves with at least this many row writes get a bigger page cache
    /// (below it, ``defaultCacheSize`` holds their pages).
    static var bigSaveWrites: Int { 3_000 }
    /// Every connection's page cache: 16 MiB (negative values are KiB), not
    /// SQLite's 2 MiB, so a fetch in index order over a store of some
    /// 100,000 rows reads each page from the file once, not once per row
    /// that lands on it. Pages take memory only as they are read.
    static var defaultCacheSize: Int { -sqlitePageCacheKiB }

    /// About 6 KiB a written row (a table page and an index page or two
    /// each, for scattered rows), between the default and 256 MiB.
    static func bigSaveCacheSize(_ writes: Int) -> Int { -min(262_144, max(-defaultCacheSize, writes * 6)) }

    /// An update's statement: its entity and which columns it sets.
    struct UpdateShape: Hashable {
        var entity: ObjectIdentifier
        var attributes: [Int]
        var toOnes: [Int]

        init(_ update: SaveBatch.Update) {
            entity = ObjectIdentifier(update.entity)
            attributes = update.attrs.map(\.0.slot)
            toOnes = update.ones.map(\.0.slot)
        }

        /// Whether two updates set the same columns of the same entity (read in place, not copied).
        static func same(_ a: UnsafePointer<SaveBatch.Update>, _ b: UnsafePointer<SaveBatch.Update>) -> Bool {
            guard a.pointee.entity === b.pointee.entity, a.pointee.attrs.count == b.pointee.attrs.count,
                a.pointee.ones.count == b.pointee.ones.count
            else { return false }
            for i in a.pointee.attrs.indices where a.pointee.attrs[i].0 !== b.pointee.attrs[i].0 { return false }
            for i in a.pointee.ones.indices where a.pointee.ones[i].0 !== b.pointee.ones[i].0 { return false }
            return true
        }
    }

    /// The positions of the updates that write something, by entity and then
    /// row ID (new objects have none here). Sorts small keys, not the updates
    /// (copying one retains its entity, ID and arrays).
    func sortedUpdates(_ updates: [SaveBatch.Update]) -> [Int] {
        var keys: [(entity: Int, row: Int64, index: Int)] = []
        keys.reserveCapacity(updates.count)
        var entities: [ObjectIdentifier: Int] = [:]
        var names: [String] = []
        func before(_ a: (entity: Int, row: Int64, index: Int), _ b: (entity: Int, row: Int64, index: Int)) -> Bool {
            a.entity == b.entity ? a.row < b.row : names[a.entity] < names[b.entity]
        }
        var sorted = true
        var lastEntity: (ObjectIdentifier, Int)?
        for i in updates.indices where !(updates[i].attrs.isEmpty && updates[i].ones.isEmpty) {
            let e = ObjectIdentifier(updates[i].entity)
            let entity: Int
            if let lastEntity, lastEntity.0 == e {
                entity = lastEntity.1
            } else if let known = entities[e] {
                entity = known
            } else {
                entity = names.count
                entities[e] = entity
                names.append(updates[i].entity.name)
            }
            lastEntity = (e, entity)
            let key = (entity: entity, row: updates[i].id.rowID, index: i)
            if let last = keys.last, before(key, last) { sorted = false }
            keys.append(key)
        }
        // A save of objects fetched in row order is sorted already.
        if sorted { return keys.map(\.index) }
        // One entity (the usual big save): row and position packed in one integer sort faster than tuples.
        if names.count == 1 && updates.count < 1 << 24, keys.allSatisfy({ $0.row >= 0 && $0.row < 1 << 39 }) {
            var packed = keys.map { UInt64($0.row) << 24 | UInt64($0.index) }
            packed.sort()
            return packed.map { Int($0 & (1 << 24 - 1)) }
        }
        keys.sort(by: before)
        return keys.map(\.index)
    }
}

/// The size of every SQLite connection's page cache, in KiB (see ``SQLiteBackend/defaultCacheSize``).
package let sqlitePageCacheKiB = 16_384

extension StoreValue {
    /// The integer of a row ID value, for ordering writes.
    var rowIDValue: Int64 { if case .integer(let v) = self { v } else { 0 } }
}
