/// A batch request as the backend runs it: validated values and translated
/// conditions, ready for SQL.
package enum BatchWrite {
    /// New rows of one entity.
    case insert(BatchRows)
    /// Set these attributes in every row the plan's condition matches.
    case update(FetchPlan, [(PropertyDescription, StoreValue)])
    /// Delete every row the plan's condition matches, or only these IDs, with the delete rules.
    case delete(FetchPlan, ids: [Int64]?)

    /// The entity the request names.
    package var entity: EntityDescription {
        switch self {
        case .insert(let rows): rows.entity
        case .update(let plan, _), .delete(let plan, _): plan.entity
        }
    }

    /// The number of row writes it may make, for sizing the page cache.
    package var isLarge: Bool {
        if case .insert(let rows) = self { return rows.count >= 2_000 }
        return true
    }
}

/// What a batch wrote: the change every context and controller hears, the
/// request's own objects (in row order), and the history row's text. An
/// insert's new objects are one range of row IDs, made into IDs only where
/// they are heard (``BatchInsertedRows``).
package struct BatchOutcome {
    package var changes = ChangeSet(origin: .otherContext)
    /// The updated or deleted objects; empty for an insert.
    package var ids: [ObjectID] = []
    /// An insert's new rows.
    package var inserted: BatchInsertedRows?
    package var history = ""

    /// How many objects of the request's entity were written.
    package var count: Int { inserted?.rows.count ?? ids.count }
}

/// A batch insert's new rows: consecutive row IDs of one entity.
///
///     BatchInsertedRows(entity: "Planet", rows: 10...12).ids   // Planet 10, 11 and 12
package struct BatchInsertedRows: Sendable {
    package let entity: String
    package let rows: ClosedRange<Int64>

    /// Their object IDs, in row order.
    package var ids: [ObjectID] { rows.map { ObjectID(entityName: entity, rowID: $0) } }
}
