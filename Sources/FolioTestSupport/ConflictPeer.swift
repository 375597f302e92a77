import FolioStore
import Foundation

/// The other side of a conflict test: another process on the same SQLite
/// file, or another container ("machine") on the same server. It obeys one
/// line at a time (``ConflictCommands``) and answers with one line.
///
/// A round runs on the local background context's queue (`perform`), so
/// the peer's save cannot be merged there before the local save: each save
/// meets the other through the row versions alone. The peer is waited for
/// on that queue, never on the main actor.
public protocol ConflictPeer: AnyObject, Sendable {
    /// Runs `command` there and returns its answer: `saved [ID]` or `error MESSAGE`.
    func run(_ command: String) throws -> String
}

/// The commands a peer obeys, each a save of its own on the latest stored state:
///
///     set ID key=value...   changes a note (`tag=nil` clears the tag)
///     delete ENTITY ID      deletes an object
///     shelf NAME            inserts a shelf, answers its ID
///     book SHELF TITLE      inserts a book on shelf SHELF (0: none), answers its ID
///     move BOOK SHELF       puts a book on another shelf
///     file NOTE SHELF       puts a note on a shelf
public enum ConflictCommands {
    public static func run(_ command: String, in context: ObjectContext) -> String {
        let words = command.split(separator: " ").map(String.init)
        context.rollback()
        context.refreshAllObjects()
        do {
            switch words.first {
            case "set":
                let note: ConflictNote = try object(words[1], in: context)
                for pair in words.dropFirst(2) {
                    let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
                    try ConflictNotes.set(note, parts[0], parts[1])
                }
            case "delete":
                guard let entity = context.schema.entity(named: words[1]) else { return "error no entity \(words[1])" }
                context.delete(try context.existingObject(with: ObjectID(entityName: entity.name, rowID: Int64(words[2]) ?? 0)))
            case "shelf":
                let shelf = ConflictShelf(context: context)
                shelf.name = words[1]
                try context.save()
                return "saved \(shelf.objectID.rowID)"
            case "book":
                let book = ConflictBook(context: context)
                book.title = words[2]
                if words[1] != "0" { book.shelf = try object(words[1], in: context) as ConflictShelf }
                try context.save()
                return "saved \(book.objectID.rowID)"
            case "move":
                let book: ConflictBook = try object(words[1], in: context)
                book.shelf = try object(words[2], in: context) as ConflictShelf
            case "file":
                let note: ConflictNote = try object(words[1], in: context)
                note.shelf = try object(words[2], in: context) as ConflictShelf
            default:
                return "error unknown command \(command)"
            }
            try context.save()
            return "saved"
        } catch {
            context.rollback()
            return "error \(error)"
        }
    }

    private static func object<T: ManagedObject>(_ id: String, in context: ObjectContext) throws -> T {
        let name = String(describing: T.self)
        guard let o = try context.existingObject(with: ObjectID(entityName: name, rowID: Int64(id) ?? 0)) as? T else {
            throw StoreError.objectDeleted(entity: name, id: Int64(id) ?? 0)
        }
        return o
    }
}

/// A peer that is a second container in this process (on a server, another machine).
public final class ContainerConflictPeer: ConflictPeer, @unchecked Sendable {  // `context` is used only through performAndWait
    private let container: PersistentContainer
    private let context: BackgroundContext

    @MainActor public init(_ container: PersistentContainer) {
        self.container = container
        context = container.newBackgroundContext()
    }

    public func run(_ command: String) throws -> String {
        context.performAndWait { ConflictCommands.run(command, in: $0) }
    }
}

/// A peer that is another process (`folio-store-worker conflict-peer PATH`) on the same store file.
public final class ProcessConflictPeer: ConflictPeer {
    private let child: StoreChildProcess

    /// Starts the peer and waits, suspended, until it is ready.
    public init(worker: URL, path: String) async throws {
        child = try StoreChildProcess(executable: worker, arguments: ["conflict-peer", path])
        guard await child.waitForLine(timeout: 60, { $0 == "ready" }) != nil else {
            throw PeerError(message: "the peer process never started")
        }
    }

    /// Waits on the calling queue (a context's, never the main actor) for the answer.
    public func run(_ command: String) throws -> String {
        let before = child.lines.count
        child.send(command)
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            let lines = child.lines
            if lines.count > before { return lines[before].line }
            usleep(500)
        }
        throw PeerError(message: "the peer process did not answer '\(command)'")
    }

    /// As ``run(_:)``, suspended between checks (for main-actor tests).
    public func send(_ command: String) async throws -> String {
        let before = child.lines.count
        child.send(command)
        let deadline = Date().addingTimeInterval(60)
        repeat {
            let lines = child.lines
            if lines.count > before { return lines[before].line }
            try await Task.sleep(for: .milliseconds(1))
        } while Date() < deadline
        throw PeerError(message: "the peer process did not answer '\(command)'")
    }

    deinit { child.closeInput() }  // the peer exits at the end of its input
}

public struct PeerError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}
