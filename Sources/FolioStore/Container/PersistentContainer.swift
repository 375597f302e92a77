import Dispatch
import Foundation

/// Opens a store and owns its contexts: the main-actor `viewContext` and
/// background contexts. Saved changes of any context merge into the others,
/// and commits by other processes on the same file arrive as change sets.
///
///     let container = try PersistentContainer(schema: Schema([Planet.self]), path: "/tmp/planets.sqlite")
///     let context = container.viewContext
///     let earth = Planet(context: context); earth.name = "Earth"
///     try context.save()
@MainActor
public final class PersistentContainer {
    /// The schema the store was opened with.
    public let schema: Schema
    /// The file, or nil for an in-memory store.
    public let path: String?
    /// The context for the main actor (the UI).
    public let viewContext: ObjectContext
    let coordinator: StoreCoordinator

    /// Opens or creates the SQLite file at `path` (WAL, foreign keys on),
    /// migrating it to `schema` when needed; `path: nil` makes an in-memory store.
    /// Other processes' saves are polled for every `pollInterval` seconds.
    ///
    ///     let container = try PersistentContainer(schema: schema, path: nil)   // in memory
    public init(schema: Schema, path: String?, busyTimeout: Double = 5, pollInterval: Double = 0.025) throws {
        self.schema = schema
        self.path = path
        coordinator = try StoreCoordinator(schema: schema, path: path, busyTimeoutMilliseconds: Int32(busyTimeout * 1000))
        viewContext = ObjectContext(coordinator: coordinator, delivery: .main)
        viewContext.name = "viewContext"
        coordinator.startPolling(interval: pollInterval)
    }

    /// A new context whose work runs on its own serial queue.
    ///
    ///     let background = container.newBackgroundContext()
    ///     try await background.perform { context in ...; try context.save() }
    public func newBackgroundContext() -> BackgroundContext {
        BackgroundContext(coordinator: coordinator)
    }

    /// Runs `body` on a fresh background context and returns its result.
    ///
    ///     try await container.performBackgroundTask { context in
    ///         Planet(context: context).name = "Vulcan"
    ///         try context.save()
    ///     }
    public func performBackgroundTask<T: Sendable>(_ body: @escaping @Sendable (ObjectContext) throws -> T) async throws -> T {
        try await newBackgroundContext().perform(body)
    }

    /// Checks the file right now for other processes' saves (the poller does this on its own).
    ///
    ///     container.checkForExternalChanges()
    public func checkForExternalChanges() { coordinator.poll() }
}

/// A context confined to its own serial queue; use it only inside `perform`.
///
///     let bg = container.newBackgroundContext()
///     let count = try await bg.perform { try $0.count(for: FetchRequest<Planet>()) }
public final class BackgroundContext: @unchecked Sendable {
    private let queue = DispatchQueue(label: "folio.store.background")
    private let context: ObjectContext

    init(coordinator: StoreCoordinator) {
        let q = queue
        context = ObjectContext(coordinator: coordinator, delivery: .queue(q))
    }

    /// Runs `body` on the context's queue and returns its result.
    ///
    ///     try await bg.perform { context in try context.save() }
    public func perform<T: Sendable>(_ body: @escaping @Sendable (ObjectContext) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async {
                let result = Result { try body(self.context) }
                self.context.processPendingChanges()
                continuation.resume(with: result)
            }
        }
    }

    /// Runs `body` on the context's queue and waits for it. Never call it from that queue.
    ///
    ///     try bg.performAndWait { context in try context.save() }
    public func performAndWait<T>(_ body: (ObjectContext) throws -> T) rethrows -> T {
        try queue.sync {
            defer { context.processPendingChanges() }
            return try body(context)
        }
    }
}
