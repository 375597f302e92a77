import FolioPostgres
import FolioStore
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
    public static func open(schema: Schema, at url: URL, readOnly: Bool = false,
                            seed: (ObjectContext) throws -> Void) throws -> PersistentContainer {
        do {
            return try withoutActuallyEscaping(seed) { seed in
                try PersistentContainer(schema: schema, store: description(url), readOnly: readOnly, seed: seed)
            }
        } catch let error as StoreError {
            throw AppError.store(error, at: url)
        } catch {
            throw AppError.store(path: StoreLocation.displayName(url), message: "\(error)")
        }
    }

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
        } catch let error as AppError {
            context.rollback()
            throw error
        } catch let error as FormController.ChangedElsewhere {
            context.rollback()
            throw error
        } catch let error as StoreError {
            context.rollback()
            throw AppError.store(error, at: url)
        } catch {
            context.rollback()
            throw AppError.store(path: StoreLocation.displayName(url), message: "\(error)")
        }
    }

    /// The store a location names: a PostgreSQL database for a `postgresql://` URI, else the file.
    static func description(_ url: URL) -> StoreDescription {
        StoreLocation.isServer(url) ? .postgreSQL(url.absoluteString) : .file(url.path)
    }
}
