import FolioStore
import Foundation

/// Deletions against changes under each merge policy, and the conflicts no
/// policy resolves, each between this context and a peer (another process
/// or machine) that saves first: each returns what differs from the rule or
/// the expected clear error (empty when all holds). A failed save writes
/// nothing and the context keeps its changes.
public enum ConflictCases {
    /// Every case, under every merge policy where the policy could matter.
    public static func all(in context: ObjectContext, peer: ConflictPeer) throws -> [String] {
        var problems: [String] = []
        for policy in [MergePolicy.error, .mergeByPropertyStoreTrump, .mergeByPropertyObjectTrump, .overwrite, .rollback] {
            context.mergePolicy = policy
            problems += try updateVersusDelete(context, peer).map { "\(policy): \($0)" }
            problems += try deleteVersusUpdate(context, peer).map { "\(policy): \($0)" }
        }
        context.mergePolicy = .error
        problems += try denyVersusInsert(context, peer)
        problems += try nullifyVersusRelate(context, peer)
        problems += try relateToDeleted(context, peer)
        problems += try uniqueValueTwice(context, peer)
        return problems
    }

    /// Saves expecting `expected`; what went otherwise.
    static func expectFailure(_ context: ObjectContext, _ what: String, _ matches: (StoreError) -> Bool) -> [String] {
        do {
            try context.save()
            return ["\(what): the save succeeded"]
        } catch let error as StoreError {
            var problems = matches(error) ? [] : ["\(what): wrong error \(error)"]
            if !context.hasChanges { problems.append("\(what): the failed save dropped the context's changes") }
            return problems
        } catch {
            return ["\(what): \(error)"]
        }
    }

    static func note(_ context: ObjectContext, _ title: String) throws -> ConflictNote {
        context.rollback()
        let note = ConflictNote(context: context)
        note.title = title
        try context.save()
        return note
    }

    static func shelf(_ context: ObjectContext, _ name: String) throws -> ConflictShelf {
        context.rollback()
        let shelf = ConflictShelf(context: context)
        shelf.name = name
        try context.save()
        return shelf
    }

    static func expectSaved(_ answer: String, _ what: String) -> [String] {
        answer.hasPrefix("saved") ? [] : ["\(what): the peer's save failed: \(answer)"]
    }

    static func count<T: ManagedObject>(_ type: T.Type, _ context: ObjectContext) -> Int {
        (try? context.count(for: FetchRequest<T>())) ?? -1
    }

    /// Changed here, deleted there. `.error` fails naming the note (kind
    /// `deletedElsewhere`); every other policy drops the change, the note
    /// leaves the context (observers hear it deleted) and never comes back;
    /// the save's other changes are written.
    static func updateVersusDelete(_ context: ObjectContext, _ peer: ConflictPeer) throws -> [String] {
        let what = "update/delete \(context.mergePolicy)"
        let (n, other, id) = try twoNotes(context, "kept")
        var problems = expectSaved(try peer.run("delete ConflictNote \(id)"), what)
        var deleted: Set<ObjectID> = []
        let token = context.observeChanges { deleted.formUnion($0.deleted) }
        defer { withExtendedLifetime(token) {} }
        n.title = "edited"
        other.title = "other edited"
        if context.mergePolicy == .error {
            problems += expectFailure(context, what) {
                $0
                    == .conflict([
                        SaveConflict(
                            entity: "ConflictNote", id: id, kind: .deletedElsewhere,
                            keys: [.init(key: "title", stored: .null, context: .text("edited"))])
                    ])
            }
            if n.title != "edited" { problems.append("\(what): the edit was lost") }
            context.rollback()
        } else {
            do { try context.save() } catch { problems.append("\(what): the save failed: \(error)") }
            if n.context != nil || !n.isDeleted { problems.append("\(what): the note stayed in the context") }
            if !deleted.contains(n.objectID) { problems.append("\(what): observers did not hear the note deleted") }
            if context.hasChanges { problems.append("\(what): changes are left unsaved") }
        }
        context.refreshAllObjects()
        let titles = (try? context.fetch(FetchRequest<ConflictNote>()).map(\.title)) ?? []
        let otherTitle = context.mergePolicy == .error ? "other" : "other edited"
        if titles != [otherTitle] { problems.append("\(what): the notes stored are \(titles), not [\(otherTitle)]") }
        try deleteAll(ConflictNote.self, context)
        return problems
    }

    /// Deleted here, changed there. `.error` fails naming the note (kind
    /// `changedBeforeDelete`); the object-trumping policies delete it; the
    /// store-trumping ones keep it with the stored values (observers hear it
    /// back); the save's other changes are written.
    static func deleteVersusUpdate(_ context: ObjectContext, _ peer: ConflictPeer) throws -> [String] {
        let policy = context.mergePolicy
        let what = "delete/update \(policy)"
        let (n, other, id) = try twoNotes(context, "original")
        var problems = expectSaved(try peer.run("set \(id) title=theirs stars=5"), what)
        var inserted: Set<ObjectID> = []
        let token = context.observeChanges { inserted.formUnion($0.inserted) }
        defer { withExtendedLifetime(token) {} }
        context.delete(n)
        other.title = "other edited"
        let deletionWins = policy == .mergeByPropertyObjectTrump || policy == .overwrite
        if policy == .error {
            problems += expectFailure(context, what) {
                $0
                    == .conflict([
                        SaveConflict(
                            entity: "ConflictNote", id: id, kind: .changedBeforeDelete,
                            keys: [
                                .init(key: "title", stored: .text("theirs"), context: .text("original")),
                                .init(key: "stars", stored: .integer(5), context: .integer(0)),
                            ])
                    ])
            }
            context.rollback()
        } else {
            do { try context.save() } catch { problems.append("\(what): the save failed: \(error)") }
            if context.hasChanges { problems.append("\(what): changes are left unsaved") }
            if deletionWins {
                if n.context != nil { problems.append("\(what): the deleted note stayed in the context") }
            } else {
                if n.isDeleted || n.context == nil { problems.append("\(what): the note did not come back") }
                if n.title != "theirs" || n.stars != 5 {
                    problems.append("\(what): the note here is \(n.title), \(n.stars), not the stored values")
                }
                if !inserted.contains(n.objectID) { problems.append("\(what): observers did not hear the note back") }
            }
        }
        context.refreshAllObjects()
        let stored =
            (try? context.fetch(FetchRequest<ConflictNote>(sortBy: [SortDescriptor(\.title)])).map { "\($0.title) \($0.stars)" }) ?? []
        let expected = policy == .error ? ["other 0", "theirs 5"] : deletionWins ? ["other edited 0"] : ["other edited 0", "theirs 5"]
        if stored != expected { problems.append("\(what): the notes stored are \(stored), not \(expected)") }
        try deleteAll(ConflictNote.self, context)
        return problems
    }

    /// A saved note titled `title`, the one the peer meets, and another one the same save changes.
    static func twoNotes(_ context: ObjectContext, _ title: String) throws -> (ConflictNote, other: ConflictNote, id: Int64) {
        let n = try note(context, title)
        let other = ConflictNote(context: context)
        other.title = "other"
        try context.save()
        return (n, other, n.objectID.rowID)
    }

    static func deleteAll<T: ManagedObject>(_ type: T.Type, _ context: ObjectContext) throws {
        context.rollback()
        for o in try context.fetch(FetchRequest<T>()) { context.delete(o) }
        try context.save()
    }

    /// A shelf (deny) deleted here while there a book was put on it: `deleteDenied`.
    static func denyVersusInsert(_ context: ObjectContext, _ peer: ConflictPeer) throws -> [String] {
        let s = try shelf(context, "deny")
        _ = s.books  // read here while empty
        var problems = expectSaved(try peer.run("book \(s.objectID.rowID) Dune"), "deny/insert")
        context.delete(s)
        problems += expectFailure(context, "deny/insert") { $0 == .deleteDenied(entity: "ConflictShelf", key: "books") }
        context.rollback()
        if count(ConflictShelf.self, context) != 1 || count(ConflictBook.self, context) != 1 {
            problems.append("deny/insert: shelves and books are not as the peer left them")
        }
        return problems
    }

    /// A shelf deleted here (notes nullify) while there a note was filed on it: `relatedSinceRead`.
    static func nullifyVersusRelate(_ context: ObjectContext, _ peer: ConflictPeer) throws -> [String] {
        let s = try shelf(context, "nullify")
        let n = try note(context, "to file")
        _ = s.notes
        var problems = expectSaved(try peer.run("file \(n.objectID.rowID) \(s.objectID.rowID)"), "nullify/relate")
        context.delete(s)
        problems += expectFailure(context, "nullify/relate") {
            $0
                == .relatedSinceRead(
                    entity: "ConflictShelf", id: s.objectID.rowID, key: "notes", related: "ConflictNote", relatedID: n.objectID.rowID)
        }
        context.rollback()
        context.refreshAllObjects()
        if n.shelf?.objectID != s.objectID { problems.append("nullify/relate: the peer's filing was lost") }
        return problems
    }

    /// A book put here on a shelf deleted there: `relatedObjectDeleted`.
    static func relateToDeleted(_ context: ObjectContext, _ peer: ConflictPeer) throws -> [String] {
        let s = try shelf(context, "gone")
        let id = s.objectID.rowID
        var problems = expectSaved(try peer.run("delete ConflictShelf \(id)"), "relate/delete")
        let books = count(ConflictBook.self, context)
        let book = ConflictBook(context: context)
        book.title = "Emma"
        book.shelf = s
        problems += expectFailure(context, "relate/delete") {
            $0 == .relatedObjectDeleted(entity: "ConflictBook", key: "shelf", target: "ConflictShelf", targetID: id)
        }
        context.rollback()
        if count(ConflictBook.self, context) != books { problems.append("relate/delete: a book was written") }
        return problems
    }

    /// The same unique name saved there first: `constraintViolation` naming entity, key and value.
    static func uniqueValueTwice(_ context: ObjectContext, _ peer: ConflictPeer) throws -> [String] {
        context.rollback()
        let mine = ConflictShelf(context: context)
        mine.name = "Twice"
        var problems = expectSaved(try peer.run("shelf Twice"), "unique")
        problems += expectFailure(context, "unique") { $0 == .constraintViolation(entity: "ConflictShelf", key: "name", value: "'Twice'") }
        context.rollback()
        let named = (try? context.count(for: FetchRequest<ConflictShelf>(predicate: #Predicate { $0.name == "Twice" }))) ?? -1
        if named != 1 { problems.append("unique: \(named) shelves named Twice") }
        return problems
    }
}
