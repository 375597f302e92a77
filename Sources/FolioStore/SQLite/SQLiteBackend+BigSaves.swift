import Foundation

// How a save's many writes reach SQLite cheaply: one prepared statement per
// entity and set of changed columns, rows in row ID order, and a page cache
// sized for the pages a big save touches.
extension SQLiteBackend {
    /// Saves with at least this many row writes get a bigger page cache.
    static var bigSaveWrites: Int { 2_000 }
    /// SQLite's default: 2 MiB (negative values are KiB).
    static var defaultCacheSize: Int { -2_000 }

    /// About 6 KiB a written row (a table page and an index page or two
    /// each, for scattered rows), between 8 and 256 MiB.
    static func bigSaveCacheSize(_ writes: Int) -> Int { -min(262_144, max(8_192, writes * 6)) }

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
    }

    /// The updates that write something, by entity and then row ID (new objects have none here).
    func sortedUpdates(_ updates: [SaveBatch.Update]) -> [SaveBatch.Update] {
        updates.filter { !($0.attrs.isEmpty && $0.ones.isEmpty) }
            .sorted { ($0.entity.name, $0.id.rowID) < ($1.entity.name, $1.id.rowID) }
    }
}

extension StoreValue {
    /// The integer of a row ID value, for ordering writes.
    var rowIDValue: Int64 { if case .integer(let v) = self { v } else { 0 } }
}
