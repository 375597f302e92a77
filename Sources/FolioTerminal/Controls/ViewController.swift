/// The base of every screen: a title, a navigation item with bar buttons,
/// drawing into a rectangle of the screen and handling events.
///
/// Subclasses override `draw(into:in:)`, `handle(_:)` and `keyHints`.
/// Events arrive at the innermost screen first; one it does not handle goes
/// to its container (navigation, tab bar), then to the application (`?`, `q`).
/// ```swift
/// final class AboutController: ViewController {
///     override func draw(into screen: inout Screen, in rect: Rect) {
///         screen.draw("Folio", at: rect.x, row: rect.y)
///     }
/// }
/// let about = AboutController(title: "About")
/// navigation.push(about)
/// ```
@MainActor
open class ViewController {
    /// The title shown in the navigation bar (and in the tab bar, unless the
    /// controller has a `tabTitle`).
    public var title: String
    /// The buttons of the navigation bar when this screen is on top.
    public var navigationItem = NavigationItem()
    /// The title in a tab bar, when this controller is a tab.
    public var tabTitle: String?
    /// The container this controller is shown in (navigation or tab bar).
    public internal(set) weak var parent: ViewController?
    /// Whether the screen is in edit mode (see `setEditing(_:)`).
    public private(set) var isEditing = false
    /// The rectangle last drawn into, for mouse hit-testing; containers set
    /// it on a child before drawing the child.
    public var frame = Rect(x: 0, y: 0, width: 0, height: 0)
    weak var attachedApplication: Application?
    /// The sync status the hint bar shows while this is the application's
    /// root screen (a container passes on its shown child's).
    ///
    /// `navigation.syncIndicator = SyncIndicator(state: .init(isOnline: false, waiting: 1))`
    open var syncIndicator: SyncIndicator?

    /// Creates a screen with a title.
    ///
    /// ```swift
    /// let detail = ViewController(title: "Mercury")
    /// ```
    public init(title: String = "") {
        self.title = title
    }

    /// The navigation controller whose stack holds this screen.
    ///
    /// ```swift
    /// controller.navigationController?.push(detail)
    /// ```
    public var navigationController: NavigationController? { ancestor(of: NavigationController.self) }

    /// The tab bar controller this screen is inside.
    ///
    /// ```swift
    /// controller.tabBarController?.selectedIndex = 1
    /// ```
    public var tabBarController: TabBarController? { ancestor(of: TabBarController.self) }

    /// The nearest container of a type above this screen.
    private func ancestor<Container: ViewController>(of type: Container.Type) -> Container? {
        var node = parent
        while let current = node {
            if let match = current as? Container { return match }
            node = current.parent
        }
        return nil
    }

    /// The running application, once the screen is attached to one.
    ///
    /// ```swift
    /// controller.application?.showHUD("Tagged")
    /// ```
    public var application: Application? {
        var node: ViewController? = self
        while let current = node {
            if let application = current.attachedApplication { return application }
            node = current.parent
        }
        return nil
    }

    /// Makes `child` part of this screen (a custom container): the child
    /// then finds this screen's navigation controller and application.
    ///
    /// ```swift
    /// final class LauncherController: ViewController {
    ///     var current: ViewController?
    ///     func open(_ app: ViewController) { addChild(app); current = app }
    ///     override func draw(into screen: inout Screen, in rect: Rect) {
    ///         current?.frame = rect
    ///         current?.draw(into: &screen, in: rect)
    ///     }
    /// }
    /// ```
    public func addChild(_ child: ViewController) {
        child.parent = self
        child.appear()
        setNeedsDisplay()
    }

    /// Detaches this screen from its container.
    ///
    /// ```swift
    /// current?.removeFromParent()
    /// ```
    public func removeFromParent() {
        parent?.setNeedsDisplay()
        parent = nil
    }

    /// A bar button that toggles edit mode: "Edit", or "Done" while editing; key `e`.
    ///
    /// ```swift
    /// navigationItem.rightBarButtonItems = [editButtonItem]
    /// ```
    public var editButtonItem: BarButtonItem {
        BarButtonItem(edit: self)
    }

    /// Enters or leaves edit mode; subclasses (tables) follow it.
    ///
    /// ```swift
    /// controller.setEditing(true)
    /// ```
    open func setEditing(_ editing: Bool) {
        isEditing = editing
        setNeedsDisplay()
    }

    /// Called once, before the screen is first shown (and before its first
    /// `viewWillAppear`), as UIKit calls it when the view loads: set up what
    /// needs the finished controller here, such as a first fetch.
    ///
    /// ```swift
    /// override func viewDidLoad() { super.viewDidLoad(); try? fetchedResultsController.performFetch() }
    /// ```
    open func viewDidLoad() {}

    /// Whether `viewDidLoad()` has run.
    public private(set) var isViewLoaded = false

    /// Runs `viewDidLoad()` if it has not run yet.
    ///
    /// ```swift
    /// controller.loadViewIfNeeded()   // a test that never shows the screen
    /// ```
    public func loadViewIfNeeded() {
        guard !isViewLoaded else { return }
        isViewLoaded = true
        viewDidLoad()
    }

    /// What a container does to show a screen: load it once, then `viewWillAppear`.
    func appear() {
        loadViewIfNeeded()
        viewWillAppear()
    }

    /// Called before the screen is shown (pushed, popped back to, tab selected).
    ///
    /// ```swift
    /// override func viewWillAppear() { table.reloadData() }
    /// ```
    open func viewWillAppear() {}

    /// Draws the screen's content into `rect` (below the navigation bar).
    ///
    /// ```swift
    /// override func draw(into screen: inout Screen, in rect: Rect) { ... }
    /// ```
    open func draw(into screen: inout Screen, in rect: Rect) {}

    /// Handles an event; returns `true` when it was used.
    ///
    /// ```swift
    /// override func handle(_ event: InputEvent) -> Bool {
    ///     if event == .key(Key(.character("r"))) { reload(); return true }
    ///     return super.handle(event)
    /// }
    /// ```
    open func handle(_ event: InputEvent) -> Bool { false }

    /// The keys this screen understands, for the hint bar and help.
    ///
    /// ```swift
    /// override var keyHints: [KeyHint] { [KeyHint("r", "reload")] }
    /// ```
    open var keyHints: [KeyHint] { [] }

    /// Whether `q` may quit here: true on a root screen.
    ///
    /// ```swift
    /// navigation.canQuit // true only at the root
    /// ```
    open var canQuit: Bool { true }

    /// Whether a text field on this screen is taking keys (then `q`, `?`
    /// and digits are typed, not commands).
    ///
    /// ```swift
    /// if controller.isEditingText { ... }
    /// ```
    open var isEditingText: Bool { false }

    /// Asks the application to draw a new frame soon.
    ///
    /// ```swift
    /// model.onChange = { [weak self] in self?.setNeedsDisplay() }
    /// ```
    public func setNeedsDisplay() {
        application?.setNeedsDisplay()
    }

    /// Presents an alert or action sheet over the application. A controller
    /// no longer (or not yet) on screen presents nothing, as UIKit's does:
    /// an observer's late call (a change heard after its form was closed)
    /// must not end the program.
    ///
    /// ```swift
    /// present(AlertController(title: "Race not selected", message: "Please select a race first", preferredStyle: .alert))
    /// ```
    public func present(_ alert: AlertController) {
        application?.present(alert)
    }

    /// UIKit's form of `present(_:)`: the alert is shown at once (a terminal
    /// does not animate), then `completion` runs.
    ///
    /// ```swift
    /// present(alert, animated: true, completion: nil)
    /// ```
    public func present(_ alert: AlertController, animated: Bool, completion: (() -> Void)? = nil) {
        present(alert)
        completion?()
    }

    /// Shows a short message that disappears by itself ("Tagged", "Updated").
    ///
    /// ```swift
    /// showHUD("Updated")
    /// ```
    public func showHUD(_ text: String) {
        application?.showHUD(text)
    }
}
