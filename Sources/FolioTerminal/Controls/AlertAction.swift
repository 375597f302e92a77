/// A button of an alert or action sheet.
///
/// ```swift
/// AlertAction(title: "Delete", style: .destructive) { _ in planets.delete(mercury) }
/// AlertAction(title: "Cancel", style: .cancel)
/// ```
@MainActor
public struct AlertAction {
    /// How a button looks and behaves.
    ///
    /// ```swift
    /// AlertAction.Style.destructive
    /// ```
    public enum Style: Sendable {
        /// An ordinary button.
        case `default`
        /// The button Esc presses; an action sheet shows it last, set apart.
        case cancel
        /// A button that destroys data: drawn red and marked "✕".
        case destructive
    }

    /// The button's title.
    public var title: String
    /// Its style.
    public var style: Style
    /// What it does, called with the action after the alert is dismissed.
    public var handler: (@MainActor (AlertAction) -> Void)?

    /// Creates a button.
    ///
    /// ```swift
    /// let ok = AlertAction(title: "OK")
    /// ```
    public init(title: String, style: Style = .default, handler: (@MainActor (AlertAction) -> Void)? = nil) {
        self.title = title
        self.style = style
        self.handler = handler
    }
}
