import FolioStore
import FolioTerminal
import Foundation

extension FormController {
    /// Saves what Done asked for without holding up the screen: `changes`
    /// runs once the store's write lock is free (see
    /// `saveWhenWritable(_:touching:_:then:)`);
    /// meanwhile the form stays with every key working, the hint bar says
    /// "saving…", and Done again only says it is still saving. Then
    /// `saved` runs (close the form, highlight the row), or the error shows
    /// (``presentSaveError(_:)``; a followed object deleted meanwhile closes
    /// the form as ``follow(_:in:noun:values:lists:)`` does).
    ///
    /// ```swift
    /// let write = try ZooStore.addingAnimal(name: "Okapi", habitat: "Forest", order: "Artiodactyla", to: context)
    /// form.save(in: context, write) { animal in
    ///     form.close()
    ///     list.highlight(animal)
    /// }
    /// ```
    public func save<T>(
        in context: ObjectContext, touching: [ObjectID] = [],
        _ changes: @escaping @MainActor () throws -> T, onSaved saved: @escaping @MainActor (T) -> Void
    ) {
        guard beginSavingDone() else { return }
        let app = application
        let ids = touching + (followedObjectID.map { [$0] } ?? [])
        saveWhenWritable(context, touching: ids, changes) { [weak self] result in
            guard let self else { return }
            self.endSavingDone()
            switch result {
            case .success(let value): saved(value)
            case .failure(let error) where error is DeletedElsewhere && self.isFollowing: self.closeForGoneSource()
            case .failure(let error) where self.application == nil:
                self.presentWhereShown(
                    title: "Not Saved", message: ErrorText.sentence(for: error) + " Nothing was saved.",
                    detail: ErrorText.detail(for: error), application: app)
            case .failure(let error): self.presentSaveError(error)
            }
        }
    }

    /// Done could not save (a field's value refused, the store locked,
    /// offline or in conflict): says why in the form's words — a field by
    /// its label, the store's trouble as a sentence (``ErrorText``) — and
    /// that nothing was written. The form keeps every value the user typed,
    /// so Done can be pressed again once the cause is gone.
    ///
    /// ```swift
    /// do { try save(form.changedValues) } catch { form.presentSaveError(error) }
    /// ```
    public func presentSaveError(_ error: any Error) {
        let what = followedNoun.map { "this \($0)" } ?? "it"
        if let conflict = error as? ChangedElsewhere {
            return presentError(
                title: "Changed Elsewhere",
                message: ErrorText.sentence(for: conflict)
                    + " Nothing was saved; your changes are still here: press Done (e) to save what you typed.")
        }
        presentWhereShown(
            title: "Not Saved",
            message: ErrorText.sentence(for: error)
                + " Nothing was saved; your changes are still here: press Done (e) to save \(what) again.",
            detail: ErrorText.detail(for: error))
    }
}
