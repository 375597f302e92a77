extension FormController {
    /// Leaves the form for the screen below it, if it is still open (a
    /// picker pushed over it goes too); a form closed already stays closed.
    ///
    /// ```swift
    /// form.onDone = { form in save(form.changedValues); form.close() }
    /// ```
    public func close() {
        guard let navigation = navigationController,
            let index = navigation.viewControllers.firstIndex(where: { $0 === self }), index > 0
        else { return }
        navigation.pop(to: navigation.viewControllers[index - 1])
    }

    /// Starts Done's save: false (with a notice) when one already waits.
    /// Until ``endSavingDone()`` a second Done only says it is still saving,
    /// and a change heard meanwhile is checked against what Done was pressed on.
    package func beginSavingDone() -> Bool {
        guard !isSavingDone else {
            application?.showNotice(Self.stillSaving)
            return false
        }
        isSavingDone = true
        shownAtDone = followed?.baseline
        return true
    }

    /// Done's save has an outcome.
    package func endSavingDone() {
        isSavingDone = false
        shownAtDone = nil
    }

    /// What Done says while its save waits.
    static var stillSaving: String { "Still saving: the form closes when it is saved" }
}
