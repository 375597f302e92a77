/// A button in the navigation bar, with the key that presses it.
///
/// ```swift
/// let add = BarButtonItem(system: .add) { [weak self] in self?.addPlanet() }
/// let sort = BarButtonItem(title: "Sort", keys: [Key(.character("s"))]) { sortPlanets() }
/// ```
@MainActor
public final class BarButtonItem {
    /// The standard buttons and their keys.
    ///
    /// ```swift
    /// BarButtonItem(system: .add) { }   // "+", keys + and a
    /// ```
    public enum SystemItem: Sendable {
        /// "+", keys `+` and `a`.
        case add
        /// "Done", key `e` (ends edit mode on forms as well).
        case done
        /// "Save", key Ctrl-S.
        case save
        /// "Cancel", key Esc.
        case cancel
    }

    /// The title drawn in the bar.
    ///
    /// ```swift
    /// controller.editButtonItem.title // "Edit", or "Done" while editing
    /// ```
    public var title: String {
        if let edited = editedController { return edited.isEditing ? "Done" : "Edit" }
        return fixedTitle
    }
    /// The keys that press the button.
    public let keys: [Key]
    /// Whether the button can be pressed (drawn dim when not).
    ///
    /// ```swift
    /// saveButton.isEnabled = !name.isEmpty
    /// ```
    public var isEnabled = true
    private let fixedTitle: String
    private let action: @MainActor () -> Void
    private weak var editedController: ViewController?

    /// A button with a title, keys and an action.
    ///
    /// ```swift
    /// BarButtonItem(title: "Sort", keys: [Key(.character("s"))]) { sort() }
    /// ```
    public init(title: String, keys: [Key] = [], action: @escaping @MainActor () -> Void) {
        fixedTitle = title
        self.keys = keys
        self.action = action
    }

    /// A standard button.
    ///
    /// ```swift
    /// BarButtonItem(system: .save) { store.save() }
    /// ```
    public convenience init(system: SystemItem, action: @escaping @MainActor () -> Void) {
        switch system {
        case .add: self.init(title: "+", keys: [Key(.character("+")), Key(.character("a"))], action: action)
        case .done: self.init(title: "Done", keys: [Key(.character("e"))], action: action)
        case .save: self.init(title: "Save", keys: [Key(.character("s"), modifiers: .control)], action: action)
        case .cancel: self.init(title: "Cancel", keys: [Key(.escape)], action: action)
        }
    }

    /// The Edit/Done button of a controller (`ViewController.editButtonItem`).
    init(edit controller: ViewController) {
        fixedTitle = "Edit"
        keys = [Key(.character("e"))]
        editedController = controller
        action = { [weak controller] in
            guard let controller else { return }
            controller.setEditing(!controller.isEditing)
        }
    }

    /// Presses the button.
    ///
    /// ```swift
    /// addButton.press()
    /// ```
    public func press() {
        guard isEnabled else { return }
        action()
    }

    /// The keys as shown in hints ("+/a", "e").
    var keyNames: String {
        keys.map(\.name).joined(separator: "/")
    }
}
