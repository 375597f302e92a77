import FolioStore

/// Finds the one object a command names: by `--id`, or by a name that must
/// not be shared (several objects with one name are refused, listing their
/// IDs, rather than acting on one of them silently).
///
/// ```swift
/// let guide = try NamedObject.resolve(Guide.self, kind: "guide", name: "Dup", id: nil, in: context) { name in
///     FetchRequest<Guide>(predicate: #Predicate { $0.name == name })
/// }   // throws: 2 guides are named 'Dup' (ids 8, 9): say which with --id ID
/// ```
@MainActor
public enum NamedObject {
    /// The object of `type` with `id`, or the only one `request(name)` finds.
    public static func resolve<Entity: ManagedObject>(
        _ type: Entity.Type, kind: String, name: String?, id: String?,
        in context: ObjectContext,
        request: (String) -> FetchRequest<Entity>
    ) throws -> Entity {
        if let id {
            guard let row = Int64(id), row > 0 else {
                throw AppError.invalidValue(option: "--id", value: id, reason: "not a \(kind) id (a positive number from `list --json`)")
            }
            let objectID = ObjectID(entityName: Entity.entity.name, rowID: row)
            guard let object = try? context.existingObject(with: objectID) as? Entity else {
                throw AppError.notFoundID(kind: kind, id: id)
            }
            return object
        }
        guard let name else { throw AppError.usage(message: "missing NAME or --id") }
        let found = try context.fetch(request(name))
        guard let first = found.first else { throw AppError.notFound(kind: kind, name: name) }
        guard found.count == 1 else {
            throw AppError.ambiguous(
                kind: kind, name: name,
                ids: found.map { "\($0.objectID.rowID)" }.sorted { $0.count == $1.count ? $0 < $1 : $0.count < $1.count },
                option: "--id")
        }
        return first
    }
}
