/// Optimistic concurrency: every entity table has a version column, 1 when
/// a row is inserted and one more at each update, and a save's UPDATE or
/// DELETE names the version its context read (`WHERE id = ? AND
/// folio_version = ?`). A row another save changed meanwhile matches
/// nothing, so the change is caught, never silently overwritten.
package enum RowVersion {
    /// The column's name in every entity table (no attribute can be named so: it would clash).
    package static let column = "folio_version"
    /// The version of a row when it is inserted.
    package static let first: Int64 = 1
}

/// What a commit throws, after rolling back, when rows it would write were
/// changed (or deleted) by another save since its context read them: each
/// such row as it is stored now. The context resolves them by its merge policy.
package struct StaleWrite: Error {
    package struct Row: Sendable {
        package var entity: EntityDescription
        package var id: ObjectID
        /// The row as stored now; nil when another save deleted it.
        package var stored: StoredRow?
        /// Whether this save was deleting the row (else updating it).
        package var deleting: Bool
    }
    package var rows: [Row]
}

/// A write whose version check matched no row: the row changed or is gone.
package struct VersionMiss {
    package var entity: EntityDescription
    package var id: ObjectID
    package var deleting: Bool

    package init(entity: EntityDescription, id: ObjectID, deleting: Bool) {
        self.entity = entity
        self.id = id
        self.deleting = deleting
    }
}

extension StoreBackend {
    /// Inside the commit's transaction, after its writes: throws ``StaleWrite``
    /// with the missed rows as stored now. A delete whose row is already gone
    /// is no conflict.
    package func throwIfStale(_ misses: [VersionMiss]) throws {
        guard !misses.isEmpty else { return }
        var stale: [StaleWrite.Row] = []
        for group in Dictionary(grouping: misses, by: { $0.entity.name }).values {
            let stored = try rows(of: group[0].entity, ids: group.map(\.id.rowID))
            for miss in group {
                let row = stored[miss.id.rowID]
                if miss.deleting && row == nil { continue }
                stale.append(.init(entity: miss.entity, id: miss.id, stored: row, deleting: miss.deleting))
            }
        }
        if !stale.isEmpty { throw StaleWrite(rows: stale.sorted { $0.id < $1.id }) }
    }
}
