import Dispatch

/// Stored rows a change feed read for the changes it hands on, shared by
/// every container of the process: each changed object's row as the store
/// held it at its change's history position or later, or nil where the row
/// is gone. A context answers a read of only such rows from them, so a
/// process reads each saved row once rather than once per container.
///
/// A context that merges late may have read the store after these rows
/// were read: it does not use them then (see ``readStart``), so that what
/// it shows never goes back in time.
///
///     var heard = HeardRows(readStart: DispatchTime.now().uptimeNanoseconds)
///     heard.set(id, row)
///     heard.row(id)   // .some(row); .some(nil): gone; nil: not read
package struct HeardRows: Sendable {
    private(set) var rows: [ObjectID: StoredRow?] = [:]
    /// Each entity's columns as the rows hold them (its attributes', then
    /// its to-ones' names): a context whose entity has others (another
    /// version of the schema on the same store) does not use them.
    private(set) var layouts: [String: [String]] = [:]
    /// When the read of these rows began (uptime nanoseconds): each row is
    /// as the store held it then or later. Rows gathered from several reads
    /// keep the earliest.
    package private(set) var readStart: UInt64

    /// Rows read from `readStart` on (`.max`: none yet).
    package init(readStart: UInt64 = .max) { self.readStart = readStart }

    /// The columns `entity`'s rows hold, in order.
    package static func layout(of entity: EntityDescription) -> [String] {
        entity.attributes.map(\.name) + entity.toOnes.map(\.name)
    }

    /// Notes that rows of `entity` hold its columns as ``layout(of:)`` gives them.
    package mutating func describe(_ entity: EntityDescription) { layouts[entity.name] = Self.layout(of: entity) }

    /// Whether rows of `entity` were read as this context's entity lays them out.
    package func fits(_ entity: EntityDescription) -> Bool { layouts[entity.name].map { $0 == Self.layout(of: entity) } ?? false }

    package var isEmpty: Bool { rows.isEmpty }
    package var count: Int { rows.count }

    /// The row of `id`: nil when it was not read, `.some(nil)` when it is gone.
    package func row(_ id: ObjectID) -> StoredRow?? { rows[id] }

    /// A later change set, with what was read for it (nil: nothing): its
    /// values replace the earlier ones, and an object it changed whose row
    /// it did not read is no longer known.
    package mutating func note(_ changes: ChangeSet, values: HeardRows?) {
        if let values {
            layouts.merge(values.layouts) { _, later in later }
            readStart = min(readStart, values.readStart)
        }
        for id in changes.inserted { rows[id] = values?.rows[id] }
        for id in changes.updated.keys { rows[id] = values?.rows[id] }
        for id in changes.deleted { rows[id] = values?.rows[id] }
    }

    /// Notes `row` (nil: gone) as what the store holds for `id`.
    package mutating func set(_ id: ObjectID, _ row: StoredRow?) { rows[id] = .some(row) }

    /// Keeps only the rows of `ids`.
    package mutating func keep(_ ids: Set<ObjectID>) {
        if rows.keys.contains(where: { !ids.contains($0) }) { rows = rows.filter { ids.contains($0.key) } }
    }
}
