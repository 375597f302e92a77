import FolioStore
import Foundation

/// Opens an app's store file, seeding it when the file is new, and turns
/// store failures into ``AppError/store(path:message:)`` (exit 1).
///
/// ```swift
/// let container = try AppStore.open(schema: Schema([Planet.self]), at: url) { context in
///     for (i, name) in SampleData.planets.enumerated() { Planet.insert(name, at: i, into: context) }
/// }
/// ```
@MainActor
public enum AppStore {
    /// Opens (creating when absent) the store at `url`; `seed` fills a new
    /// file and is saved at once. A file that is not a Folio store is left
    /// untouched and reported.
    public static func open(schema: Schema, at url: URL, seed: (ObjectContext) throws -> Void) throws -> PersistentContainer {
        if !FileManager.default.fileExists(atPath: url.path) {
            // Seed through a container of its own, released before the app's
            // opens: one that seeded a new file sometimes missed the next save
            // by another process (a store-layer race).
            let seeder = try container(schema: schema, at: url)
            try save(seeder.viewContext, at: url) {
                try seed(seeder.viewContext)
            }
        }
        return try container(schema: schema, at: url)
    }

    private static func container(schema: Schema, at url: URL) throws -> PersistentContainer {
        do {
            return try PersistentContainer(schema: schema, path: url.path)
        } catch {
            throw AppError.store(path: url.path, message: "\(error)")
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
        } catch let error as StoreError {
            context.rollback()
            throw AppError.store(path: url.path, message: error.description)
        } catch {
            context.rollback()
            throw AppError.store(path: url.path, message: "\(error)")
        }
    }
}
