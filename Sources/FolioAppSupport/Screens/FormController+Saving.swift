import FolioTerminal

extension FormController {
    /// Done could not save (a field's value refused, the store locked,
    /// offline or in conflict): says why in the form's words — a field by
    /// its label, the store's trouble as a sentence — and that nothing was
    /// written. The form keeps every value the user typed, so Done can be
    /// pressed again once the cause is gone.
    ///
    /// ```swift
    /// do { try save(form.changedValues) } catch { form.presentSaveError(error) }
    /// ```
    public func presentSaveError(_ error: any Error) {
        let what = followed.map { "this \($0.noun)" } ?? "it"
        if let conflict = error as? ChangedElsewhere {
            return presentError(title: "Changed Elsewhere",
                                message: ErrorText.sentence(for: conflict)
                                    + " Nothing was saved; your changes are still here: press Done (e) to save what you typed.")
        }
        presentError(title: "Not Saved",
                     message: ErrorText.sentence(for: error)
                        + " Nothing was saved; your changes are still here: press Done (e) to save \(what) again.")
    }
}
