import FolioAdapters
import FolioPostgres
import FolioStore
import FolioTerminal
import Foundation

/// Opens an app's store file, made and seeded in one step when there is
/// none yet, and turns store failures into ``AppError/store(path:message:)`` (exit 1).
///
/// ```swift
/// let container = try AppStore.open(schema: Planet.schema, at: url) { context in
///     for (i, name) in SampleData.planets.enumerated() { Planet.insert(name, at: i, into: context) }
/// }
/// ```
@MainActor
public enum AppStore {
    /// Opens (creating when absent) the store at `url`; `seed` fills a new
    /// store before its file appears, so a kill during a first launch leaves
    /// no store or a seeded one, and concurrent first launches seed once. A
    /// file that is not this app's Folio store is left untouched and
    /// reported. `readOnly` (for commands that only print) writes nothing
    /// to an existing store and works on read-only files.
    ///
    /// With a `replica` file beside a `postgresql://` store, the container
    /// works on that local copy and syncs it in the background (its
    /// `syncStatus` says how); a new replica copies the server's store
    /// first, so the server must answer then. Failures name the replica file.
    public static func open(
        schema: Schema, at url: URL, replica: URL? = nil, readOnly: Bool = false,
        seed: (ObjectContext) throws -> Void
    ) throws -> PersistentContainer {
        let file = replica ?? url
        if !readOnly && isWriteProtected(file) {
            // A read-only mount is named as such; otherwise the file or its folder is.
            let reason = AppError.isOnReadOnlyMount(file.path) ? AppError.reason(.readOnly(path: file.path), at: file) : writeProtected
            throw AppError.store(path: StoreLocation.displayName(file), message: reason)
        }
        let isNewReplica = replica.map { !FileManager.default.fileExists(atPath: $0.path) } ?? false
        do {
            let container = try withoutActuallyEscaping(seed) { seed in
                try PersistentContainer(
                    schema: schema, store: description(url, replica: replica), readOnly: readOnly,
                    syncsAutomatically: replicasSyncByThemselves, seed: seed)
            }
            if readOnly { ReadOnlyStores.mark(container.viewContext) }
            // The later push wins key by key; what only the server changed stays (see DECISIONS.md).
            if container.syncStatus != nil { container.syncMergePolicy = .mergeByPropertyObjectTrump }
            return container
        } catch let error as StoreError {
            if isNewReplica, case .offline = error, let replica {
                throw AppError.store(
                    path: replica.path,
                    message: AppError.reason(error, at: replica)
                        + "; a new replica first copies the server's store, so the server must answer then")
            }
            throw AppError.store(error, at: file)
        } catch {
            throw AppError.store(path: StoreLocation.displayName(file), message: "\(error)")
        }
    }

    /// Whether a replica opened now syncs in the background (an app's), or
    /// only when asked (a subcommand's, which reports each sync it makes).
    package static var replicasSyncByThemselves = true

    /// Runs `changes` inside one write transaction of the store and saves
    /// them (``ObjectContext/performWrite(_:)``): what `changes` reads is the
    /// latest committed state and no other process writes until they are
    /// saved, so a check such as "no planet has this name" still holds when
    /// the save lands. On any failure rolls back (nothing is written) and
    /// rethrows, store errors as ``AppError/store(path:message:)``.
    ///
    /// ```swift
    /// let planet = try AppStore.save(context, at: url) { Planet(context: context) }
    /// ```
    @discardableResult
    public static func save<T>(_ context: ObjectContext, at url: URL, _ changes: () throws -> T) throws -> T {
        do {
            return try context.performWrite(changes)
        } catch {
            throw failure(error, rollingBack: context, at: url)
        }
    }

    /// As ``save(_:at:_:)``, but waits for the store's write lock off the
    /// main actor (``ObjectContext/performWriteWhenWritable(_:)``): the
    /// screen keeps drawing and taking keys while another process writes,
    /// and `changes` runs once the lock is held. Screens save through
    /// FolioAdapters' `saveWhenWritable(_:touching:_:then:)`,
    /// which queues their saves one after another and shows that they wait.
    ///
    /// ```swift
    /// let planet = try await AppStore.saveWhenWritable(context, at: url) { Planet(context: context) }
    /// ```
    @discardableResult
    public static func saveWhenWritable<T>(
        _ context: ObjectContext, at url: URL?,
        _ changes: () throws -> T
    ) async throws -> T {
        if ReadOnlyStores.contains(context) {
            context.rollback()
            throw ReadOnlyStores.Refusal()
        }
        do {
            return try await context.performWriteWhenWritable(changes)
        } catch {
            throw failure(error, rollingBack: context, at: url)
        }
    }

    /// Rolls back what a failed save left and says why in the app's terms
    /// (a store error as itself when no location is given: a screen shows its reason).
    private static func failure(_ error: any Error, rollingBack context: ObjectContext, at url: URL?) -> any Error {
        context.rollback()
        guard let url else { return error }
        switch error {
        case is AppError, is FormController.ChangedElsewhere, is DeletedElsewhere: return error
        case let error as StoreError: return AppError.store(error, at: url)
        default: return AppError.store(path: StoreLocation.displayName(url), message: "\(error)")
        }
    }

    /// Why a command cannot change a write-protected store, naming only what can be done.
    static let writeProtected =
        "it or its folder is write-protected, so nothing can be changed; "
        + "`list` prints it, and the app shows it read-only"

    /// Whether the store file at `url` exists and cannot be written: the
    /// file, or its folder (where the store keeps its log files) without the
    /// writable log files already there. A server store never is.
    ///
    /// ```swift
    /// let container = try PlanetsStore.open(at: url, readOnly: AppStore.isWriteProtected(url))
    /// ```
    public static func isWriteProtected(_ url: URL) -> Bool {
        guard !StoreLocation.isServer(url) else { return false }
        let files = FileManager.default, path = url.path
        guard files.fileExists(atPath: path) else { return false }
        if !files.isWritableFile(atPath: path) { return true }
        let folder = url.deletingLastPathComponent().path
        if files.isWritableFile(atPath: folder) { return false }
        return !["-wal", "-shm"].allSatisfy { files.isWritableFile(atPath: path + $0) }
    }

    /// The store a location names: a PostgreSQL database for a `postgresql://` URI
    /// (through a local `replica` file when one is given), else the file.
    static func description(_ url: URL, replica: URL? = nil) -> StoreDescription {
        guard StoreLocation.isServer(url) else { return .file(url.path) }
        return replica.map { .postgreSQL(url.absoluteString, replica: $0.path) } ?? .postgreSQL(url.absoluteString)
    }
}
