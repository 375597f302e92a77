extension StoreError {
    /// What went wrong, without the store's path or address: the one wording
    /// of each failure. `description` puts the store in front; an app names
    /// it once ("cannot use the store at planets.sqlite: …") or not at all (a
    /// screen, which only ever shows its own store).
    ///
    /// ```swift
    /// StoreError.busy(path: "/tmp/p.sqlite").reason
    /// // "another program kept the store locked while it saved, longer than the busy timeout"
    /// ```
    public var reason: String {
        switch self {
        case let .conflict(conflicts):
            "the save conflicts with another save, so nothing was written: " + conflicts.map(\.description).joined(separator: "; ")
        case let .relatedObjectDeleted(entity, key, target, targetID):
            "\(entity).\(key) refers to \(target) \(targetID), which another save deleted; nothing was written"
        case let .relatedSinceRead(entity, id, key, related, relatedID):
            "\(entity) \(id) was not deleted: another save related \(related) \(relatedID) to it (\(key)) since it was read here; nothing was written"
        case let .validation(entity, key, reason): "\(entity).\(key): \(reason)"
        case let .deleteDenied(entity, key): "cannot delete \(entity): its \(key) relationship is not empty (delete rule deny)"
        case let .constraintViolation(entity, key, value): "\(entity).\(key) must be unique; \(value) is already stored"
        case .notADatabase: "it is not a Folio store (not an SQLite database); it was left untouched"
        case let .notAFolioStore(_, reason): "it is not a Folio store (\(reason)); it was left untouched"
        case let .otherSchema(_, stored, expected): "it is a Folio store of \(stored), not of \(expected); it was left untouched"
        case let .corrupt(_, message): "the store is damaged (\(message)); nothing more is written to it"
        case .readOnly: "the store was opened read-only; nothing can be saved to it"
        case let .migrationNeeded(_, reason): "the store needs migrating (\(reason)), which a read-only open cannot do"
        case .busy: "another program kept the store locked while it saved, longer than the busy timeout"
        case .diskFull: "the disk is full; nothing more could be written, and what was saved before is intact"
        case let .cannotOpen(_, message): "the store cannot be opened: \(message)"
        case let .migrationImpossible(entity, key, reason): "cannot migrate \(entity).\(key) automatically: \(reason)"
        case let .newerSchema(stored, current): "the store has schema version \(stored), newer than this program's \(current)"
        case let .unsupportedPredicate(what): "predicate not supported by the store: \(what)"
        case let .unknownKeyPath(entity, keyPath):
            "\(keyPath) is not a stored property of \(entity) (fetch, sort and filter by @Managed properties its entity declares)"
        case let .otherEntityName(named, fetched):
            "FetchRequest<\(fetched)>(entityName: \"\(named)\") names '\(named)', not the entity it fetches (\(fetched))"
        case let .typeMismatch(expected, found): "expected a value of type \(expected), found \(found)"
        case let .objectDeleted(entity, id): "\(entity) \(id) has been deleted"
        case let .deletedElsewhere(entity, id, keys):
            "\(entity) \(id) was deleted elsewhere before its changes (\(keys.joined(separator: ", "))) could be saved; roll back to discard them"
        case let .sqlite(code, message, sql): "SQLite error \(code): \(message)" + (sql.isEmpty ? "" : " [\(sql)]")
        case let .offline(_, message): "the database server cannot be reached (\(message)); nothing was written"
        case .timedOut: "a statement ran past the server's statement timeout and was cancelled; nothing was written"
        case let .server(_, code, message, _): "the database server failed (SQLSTATE \(code)): \(message)"
        case let .notOnReplica(_, what): "\(what) cannot be done on a replica yet; nothing was written"
        }
    }

    /// The store the failure is about (a file's path, a server's address
    /// without its password), for the errors that name one.
    public var store: String? {
        switch self {
        case let .notADatabase(path), let .notAFolioStore(path, _), let .otherSchema(path, _, _), let .corrupt(path, _),
            let .readOnly(path), let .migrationNeeded(path, _), let .busy(path), let .diskFull(path), let .cannotOpen(path, _),
            let .notOnReplica(path, _):
            path
        case let .offline(store, _), let .timedOut(store), let .server(store, _, _, _):
            store
        default:
            nil
        }
    }
}
