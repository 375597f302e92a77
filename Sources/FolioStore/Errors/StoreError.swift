/// Everything the store can fail with. Each case carries what is needed to
/// understand the failure; `description` reads as a sentence.
///
///     do { try context.save() }
///     catch StoreError.validation(let entity, let key, let reason) { print(entity, key, reason) }
public enum StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Another save changed or deleted objects this save writes since this
    /// context read them, and the merge policy is `.error` (or cannot resolve
    /// a deletion); nothing was written and the changes stay in the context.
    case conflict([SaveConflict])
    /// The save relates an object (`entity.key`) to one another save deleted; nothing was written.
    case relatedObjectDeleted(entity: String, key: String, target: String, targetID: Int64)
    /// The save deletes an object another save related an object to (through `key`)
    /// since this context read it; nothing was written.
    case relatedSinceRead(entity: String, id: Int64, key: String, related: String, relatedID: Int64)
    /// A value failed validation; nothing was written.
    case validation(entity: String, key: String, reason: String)
    /// The object could not be deleted: a relationship with the deny rule still has members.
    case deleteDenied(entity: String, key: String)
    /// A unique constraint would be broken.
    case constraintViolation(entity: String, key: String, value: String)
    /// The file exists but is not an SQLite database; it was left untouched.
    case notADatabase(path: String)
    /// The file is an SQLite database of another program, not a Folio store; it was left untouched.
    case notAFolioStore(path: String, reason: String)
    /// The file is a Folio store of another schema (another app); it was left untouched.
    case otherSchema(path: String, stored: String, expected: String)
    /// The database file is damaged; from the moment that was found nothing more is written to it.
    case corrupt(path: String, message: String)
    /// The container opened the store read-only, so it cannot save.
    case readOnly(path: String)
    /// The store needs migrating to this schema, which a read-only container cannot do.
    case migrationNeeded(path: String, reason: String)
    /// Another connection held the database locked longer than the busy timeout.
    case busy(path: String)
    /// The disk is full; what failed was rolled back and nothing saved before was lost.
    case diskFull(path: String)
    /// The file could not be opened or created.
    case cannotOpen(path: String, message: String)
    /// The stored schema cannot be migrated to the current one automatically.
    case migrationImpossible(entity: String, key: String, reason: String)
    /// The store was written by a newer schema version than this program knows.
    case newerSchema(stored: Int, current: Int)
    /// A predicate uses a form the store cannot translate to SQL.
    case unsupportedPredicate(String)
    /// A key path does not name a stored property of the entity.
    case unknownKeyPath(entity: String, keyPath: String)
    /// A fetch request names (`FetchRequest(entityName:)`) another entity than the one it fetches.
    case otherEntityName(named: String, fetched: String)
    /// A stored value does not have the type the attribute declares.
    case typeMismatch(expected: String, found: String)
    /// The object was deleted (here or by another context or process).
    case objectDeleted(entity: String, id: Int64)
    /// Values were written to an object after another context or process
    /// deleted it (and this context merged the deletion). Roll back to let
    /// the writes go; the object is not saved again.
    case deletedElsewhere(entity: String, id: Int64, keys: [String])
    /// Any other SQLite failure, with its result code, message and statement.
    case sqlite(code: Int32, message: String, sql: String)
    /// The database server cannot be reached (down, or the connection was lost);
    /// what was being done was not written. The store reconnects by itself.
    case offline(store: String, message: String)
    /// A statement ran past the server's statement timeout and was cancelled; nothing was written.
    case timedOut(store: String)
    /// Any other database server failure, with its SQLSTATE code, message and statement.
    case server(store: String, code: String, message: String, sql: String)
    /// What was asked is not done on a replica of a server's store yet (`what` says what); nothing was written.
    case notOnReplica(path: String, what: String)

    /// A sentence describing the failure: the store it is about, if any, then ``reason``
    /// (and a server's failed statement).
    ///
    /// ```swift
    /// "\(StoreError.readOnly(path: "/tmp/p.sqlite"))"
    /// // "/tmp/p.sqlite: the store was opened read-only; nothing can be saved to it"
    /// ```
    public var description: String {
        let sentence = store.map { "\($0): \(reason)" } ?? reason
        guard case let .server(_, _, _, sql) = self, !sql.isEmpty else { return sentence }
        return sentence + " [\(sql)]"
    }
}
