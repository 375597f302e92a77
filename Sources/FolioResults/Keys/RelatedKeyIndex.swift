import FolioStore

/// Which objects read their keys through which related objects, for a plan
/// whose sort keys or filters go through to-one relationships: a change to a
/// related object names the objects to place again. Related objects are
/// known by entity and row, so that a kind and a shelf with the same row ID,
/// or an object of the fetched entity itself, are told apart.
///
/// A related object's key can change in more ways than an update: it can be
/// deleted (its dependents may still point at it until the save, or for
/// good when a deny rule refuses the save), and come back on a rollback or an
/// undo, where its keys are its stored ones again. Each of these places its
/// dependents again; the links stay until the dependents themselves change.
///
/// ```swift
/// var index = RelatedKeyIndex(plan.related)
/// index.link(rows, removed: deleted)
/// index.forEachDependent(of: changes) { touched.append(($0, false)) }
/// ```
struct RelatedKeyIndex {
    /// A related entity and the keys of it that can move a dependent (nil: any key).
    private struct Target {
        var entity: String
        var keyNames: Set<String>?
    }

    /// Each relationship's related entity, by its column in the related rows read.
    private var columns: [(column: Int, entity: String)] = []
    private var targets: [Target] = []
    /// Related object → the engine IDs of the objects that point at it, and back.
    private var dependents: [ObjectID: Set<Int64>] = [:]
    private var relatedOf: [Int64: [ObjectID]] = [:]

    init() {}

    init<Entity>(_ related: [KeyPlan<Entity>.Related]) {
        columns = related.map { ($0.column, $0.entity) }
        for link in related {
            if let i = targets.firstIndex(where: { $0.entity == link.entity }) {
                targets[i].keyNames = link.keyNames.flatMap { names in targets[i].keyNames.map { $0.union(names) } }
            } else {
                targets.append(Target(entity: link.entity, keyNames: link.keyNames))
            }
        }
    }

    var isEmpty: Bool { columns.isEmpty }

    /// Points each object (engine ID) at the related objects its row names
    /// (the relationships' row IDs, in the plan's columns); `removed` objects are gone.
    /// - Complexity: O(k) for k rows.
    mutating func link(_ rows: [(Int64, [StoreValue])], removed: [Int64]) {
        guard !columns.isEmpty else { return }
        for row in removed { unlink(row) }
        for (row, values) in rows {
            unlink(row)
            var links: [ObjectID] = []
            for (column, entity) in columns {
                guard case .integer(let target) = values[column] else { continue }
                let id = ObjectID(entityName: entity, rowID: target)
                dependents[id, default: []].insert(row)
                links.append(id)
            }
            if !links.isEmpty { relatedOf[row] = links }
        }
    }

    private mutating func unlink(_ row: Int64) {
        for related in relatedOf.removeValue(forKey: row) ?? [] {
            dependents[related]?.remove(row)
            if dependents[related]?.isEmpty == true { dependents[related] = nil }
        }
    }

    /// Calls `body` with each object that reads a related object `changes`
    /// touch in a key that matters: updated in such a key, deleted, or
    /// present again (an insertion of an object already linked is a
    /// deletion undone, by a rollback or an undo).
    /// - Complexity: O(c + d) for c changes and d dependents.
    func forEachDependent(of changes: ChangeSet, _ body: (Int64) -> Void) {
        guard !dependents.isEmpty else { return }
        for target in targets {
            func visit(_ id: ObjectID) { for row in dependents[id] ?? [] { body(row) } }
            for (id, keys) in changes.updated
            where id.entityName == target.entity
                && target.keyNames.map({ !keys.isDisjoint(with: $0) }) ?? true
            {
                visit(id)
            }
            for id in changes.deleted where id.entityName == target.entity { visit(id) }
            for id in changes.inserted where id.entityName == target.entity { visit(id) }
        }
    }

    /// Follows a save's new IDs: `rows` for the fetched entity's engine IDs, `related` for any object's.
    mutating func rename(rows: [Int64: Int64], related: [ObjectID: ObjectID]) {
        for (old, new) in rows {
            guard let links = relatedOf.removeValue(forKey: old) else { continue }
            relatedOf[new] = links
            for target in links where dependents[target]?.remove(old) != nil { dependents[target]!.insert(new) }
        }
        for (old, new) in related {
            guard let members = dependents.removeValue(forKey: old) else { continue }
            dependents[new] = members
            for member in members { relatedOf[member] = relatedOf[member]?.map { $0 == old ? new : $0 } }
        }
    }
}
