import FolioStore
import FolioTerminal
import Foundation

extension ViewController {
    /// Saves `changes` without holding up the screen: the save waits for the
    /// store's write lock off the main actor, after the saves this context
    /// started before it, while the screen keeps drawing and taking keys
    /// and the hint bar says "saving…". `changes` runs inside the write
    /// transaction (what it reads is the latest committed state); on
    /// failure nothing is written and the context is rolled back. `outcome`
    /// gets the result when it comes, on the main actor, whether or not this
    /// screen is still shown (see ``presentWhereShown(error:title:)``).
    ///
    /// A store error comes as itself (``ErrorText`` makes a sentence of it);
    /// a store opened read-only (``ReadOnlyStores``) refuses at once.
    /// Every save a screen makes goes this way; `touching` names the
    /// objects it changes, so that ``isSaving(_:in:)`` can hold back a
    /// second action on them until it lands.
    ///
    /// ```swift
    /// saveWhenWritable(context, touching: [planet.objectID], { context.delete(planet) }) { result in
    ///     if case .failure(let error) = result { self.presentWhereShown(error: error, title: "Not Deleted") }
    /// }
    /// ```
    public func saveWhenWritable<T>(
        _ context: ObjectContext, touching: [ObjectID] = [],
        _ changes: @escaping @MainActor () throws -> T,
        then outcome: @escaping @MainActor (Result<T, any Error>) -> Void
    ) {
        StoreSaveQueue.of(context).enqueue(touching: touching, application: application) {
            if ReadOnlyStores.contains(context) {
                context.rollback()
                return outcome(.failure(ReadOnlyStores.Refusal()))
            }
            do {
                outcome(.success(try await context.performWriteWhenWritable(changes)))
            } catch {
                // Nothing was written: what `changes` left goes too.
                context.rollback()
                outcome(.failure(error))
            }
        }
    }

    /// Whether a save this app started and that has not landed yet changes the object `id`.
    ///
    /// ```swift
    /// if isSaving(planet.objectID, in: context) { return application?.showNotice("Still saving this row") ?? () }
    /// ```
    public func isSaving(_ id: ObjectID, in context: ObjectContext) -> Bool {
        StoreSaveQueue.isSaving(id, in: context)
    }

    /// Shows an error alert on this screen, or, when the screen was closed
    /// while its save waited, on whatever `application` shows now: an
    /// outcome is never lost.
    ///
    /// ```swift
    /// presentWhereShown(error: error, title: "Not Deleted", application: app)
    /// ```
    public func presentWhereShown(error: any Error, title: String, application app: Application? = nil) {
        presentWhereShown(title: title, message: ErrorText.sentence(for: error), detail: ErrorText.detail(for: error), application: app)
    }

    /// Shows an alert with `title`, `message` (its `detail` behind `?`) and
    /// OK here, or on `app` when this screen is gone.
    ///
    /// ```swift
    /// presentWhereShown(title: "Not Saved", message: "The store is locked.", application: app)
    /// ```
    public func presentWhereShown(title: String, message: String, detail: String? = nil, application app: Application? = nil) {
        let alert = AlertController(title: title, message: message, preferredStyle: .alert)
        alert.detail = detail
        alert.addAction(AlertAction(title: "OK", style: .cancel))
        if let shown = application { return shown.present(alert) }
        app?.present(alert)
    }
}
