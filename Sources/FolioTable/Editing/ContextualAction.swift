/// A button revealed by swiping a row (UIKit rule 3.11).
///
/// The handler must call its completion: `true` when it carried out the
/// action, `false` otherwise. Either way the swipe then closes; a
/// destructive action that completes with `true` expects the app to have
/// deleted the row.
///
/// ```swift
/// let delete = ContextualAction(style: .destructive, title: "Delete") { action, done in
///     confirmDelete(path) { confirmed in done(confirmed) }
/// }
/// ```
@MainActor
public final class ContextualAction {
    /// How the button looks.
    ///
    /// ```swift
    /// ContextualAction(style: .destructive, title: "Delete") { _, done in done(true) }
    /// ```
    public enum Style: Int, Sendable {
        /// An ordinary button.
        case normal = 0
        /// A destructive (red) button.
        case destructive = 1
    }

    /// The work the button does; call `completion` when finished.
    ///
    /// ```swift
    /// let handler: ContextualAction.Handler = { action, done in done(true) }
    /// ```
    public typealias Handler =
        @MainActor (
            _ action: ContextualAction, _ completion: @escaping @MainActor (Bool) -> Void
        ) -> Void

    /// The button's style.
    ///
    /// ```swift
    /// if action.style == .destructive { drawRed() }
    /// ```
    public let style: Style
    /// The button's title.
    ///
    /// ```swift
    /// action.title = "Remove"
    /// ```
    public var title: String?
    /// The button's work.
    ///
    /// ```swift
    /// action.handler(action) { _ in }
    /// ```
    public let handler: Handler

    /// Creates an action: `ContextualAction(style: .normal, title: "Flag") { _, done in done(true) }`.
    public init(style: Style, title: String?, handler: @escaping Handler) {
        self.style = style
        self.title = title
        self.handler = handler
    }
}

/// The actions a swipe reveals: `actions[0]` is the outermost button and
/// the one a full swipe performs (UIKit rule 3.10).
///
/// ```swift
/// SwipeActionsConfiguration(actions: [delete, flag])
/// ```
@MainActor
public final class SwipeActionsConfiguration {
    /// The buttons, outermost first.
    ///
    /// ```swift
    /// configuration.actions.first?.title
    /// ```
    public let actions: [ContextualAction]
    /// Whether a full swipe performs `actions[0]`; true by default.
    ///
    /// ```swift
    /// configuration.performsFirstActionWithFullSwipe = false
    /// ```
    public var performsFirstActionWithFullSwipe = true

    /// Creates a configuration; an empty one shows nothing (rule 3.9).
    ///
    /// ```swift
    /// let configuration = SwipeActionsConfiguration(actions: [delete])
    /// ```
    public init(actions: [ContextualAction]) {
        self.actions = actions
    }
}
