extension ViewController {
    /// Shows an error that stays until the user dismisses it: an alert with
    /// `title`, `message` and OK. Successes use `showHUD(_:)`, which goes by
    /// itself; a failure never does, and never shows a tick.
    ///
    /// ```swift
    /// presentError(title: "Not Deleted", message: "The store is locked by another program.")
    /// ```
    public func presentError(title: String, message: String) {
        let alert = AlertController(title: title, message: message, preferredStyle: .alert)
        alert.addAction(AlertAction(title: "OK", style: .cancel))
        present(alert)
    }
}
