/// An alert (a box in the middle) or an action sheet (a list at the bottom,
/// its Cancel last and set apart), presented over the whole application.
///
/// Up/Down or Tab move between buttons, Enter presses the focused one, Esc
/// presses Cancel. A destructive confirmation (a destructive button and a
/// Cancel) opens with Cancel focused, so Enter alone never destroys.
/// ```swift
/// let sheet = AlertController(title: "Delete Planet",
///                             message: "Are you sure you want to permanently delete \(name)?",
///                             preferredStyle: .actionSheet)
/// sheet.addAction(AlertAction(title: "Delete", style: .destructive) { _ in delete() })
/// sheet.addAction(AlertAction(title: "Cancel", style: .cancel))
/// controller.present(sheet)
/// ```
@MainActor
public final class AlertController {
    /// Where and how the buttons are shown.
    ///
    /// ```swift
    /// AlertController.Style.alert
    /// ```
    public enum Style: Sendable {
        /// A centred box.
        case alert
        /// A list at the bottom of the screen.
        case actionSheet
    }

    /// The title, bold.
    public var title: String?
    /// The message under the title.
    public var message: String?
    /// What lies behind the message (a server's own words), shown under it
    /// while `?` is toggled on; the message stays one plain sentence.
    ///
    /// ```swift
    /// alert.detail = "connection to server on socket \"/run/pg/.s.PGSQL.5432\" failed: No such file or directory"
    /// ```
    public var detail: String?
    /// Whether ``detail`` is shown (`?` toggles it).
    public internal(set) var isShowingDetail = false
    /// Alert or action sheet.
    public let preferredStyle: Style
    /// The buttons in the order added.
    public private(set) var actions: [AlertAction] = []
    /// The focused button, as an index into `displayedActions`.
    public internal(set) var focusedIndex = 0
    /// The theme it is drawn with.
    public var theme = Theme.standard
    private var focusChosen = false
    var buttonFrames: [Rect] = []

    /// Creates an alert or action sheet; add buttons with `addAction`.
    ///
    /// ```swift
    /// let alert = AlertController(title: "Race not selected", message: "Please select a race first", preferredStyle: .alert)
    /// ```
    public init(title: String?, message: String?, preferredStyle: Style) {
        self.title = title
        self.message = message
        self.preferredStyle = preferredStyle
    }

    /// Adds a button. At most one may be `.cancel`.
    ///
    /// ```swift
    /// alert.addAction(AlertAction(title: "OK", style: .cancel))
    /// ```
    public func addAction(_ action: AlertAction) {
        precondition(
            action.style != .cancel || !actions.contains { $0.style == .cancel },
            "alert '\(title ?? "")' already has a cancel action; '\(action.title)' cannot be a second one")
        actions.append(action)
    }

    /// The buttons as shown: an action sheet puts Cancel last.
    ///
    /// ```swift
    /// sheet.displayedActions.last?.style // .cancel
    /// ```
    public var displayedActions: [AlertAction] {
        guard preferredStyle == .actionSheet else { return actions }
        return actions.filter { $0.style != .cancel } + actions.filter { $0.style == .cancel }
    }

    /// The focused button's title.
    ///
    /// ```swift
    /// confirmation.focusedTitle // "Cancel"
    /// ```
    public var focusedTitle: String? {
        let shown = displayedActions
        return shown.indices.contains(focusedIndex) ? shown[focusedIndex].title : nil
    }

    /// Chooses the first focus: Cancel for a destructive confirmation, else the first button.
    func prepareFocus() {
        guard !focusChosen else { return }
        focusChosen = true
        let shown = displayedActions
        if shown.contains(where: { $0.style == .destructive }), let cancel = shown.firstIndex(where: { $0.style == .cancel }) {
            focusedIndex = cancel
        } else {
            focusedIndex = 0
        }
    }

    /// What a key did to the alert.
    enum Outcome {
        case stay
        case dismiss(AlertAction?)
    }

    /// Moves focus or picks a button.
    func handle(_ key: Key) -> Outcome {
        let shown = displayedActions
        switch key.code {
        case .up, .backTab:
            if !shown.isEmpty { focusedIndex = (focusedIndex + shown.count - 1) % shown.count }
        case .down, .tab:
            if !shown.isEmpty { focusedIndex = (focusedIndex + 1) % shown.count }
        case .character("k") where key.modifiers.isEmpty:
            if !shown.isEmpty { focusedIndex = (focusedIndex + shown.count - 1) % shown.count }
        case .character("j") where key.modifiers.isEmpty:
            if !shown.isEmpty { focusedIndex = (focusedIndex + 1) % shown.count }
        case .enter:
            return .dismiss(shown.indices.contains(focusedIndex) ? shown[focusedIndex] : nil)
        case .escape:
            return .dismiss(shown.first { $0.style == .cancel })
        case .character("?") where detail != nil:
            isShowingDetail.toggle()
        default:
            break
        }
        return .stay
    }

    /// A click on a button presses it; clicks elsewhere are swallowed.
    func handle(_ mouse: MouseEvent) -> Outcome {
        guard case .press(.left) = mouse.kind else { return .stay }
        let shown = displayedActions
        for (index, rect) in buttonFrames.enumerated() where rect.contains(column: mouse.column, row: mouse.row) {
            focusedIndex = index
            return .dismiss(shown[index])
        }
        return .stay
    }

    /// Keys for help.
    var keyHints: [KeyHint] {
        [KeyHint("↑↓/Tab", "move"), KeyHint("Enter", "press"), KeyHint("Esc", "cancel")]
            + (detail == nil ? [] : [KeyHint("?", isShowingDetail ? "hide details" : "details")])
    }
}
