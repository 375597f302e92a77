/// A stack of screens under a navigation bar: the title in the middle, a
/// back button ("‹ Planets") at the left, bar buttons (Edit/Done, +) at the right.
///
/// Esc pops; `e` presses Edit/Done; `+` or `a` presses the add button; a click
/// on a bar button presses it.
/// ```swift
/// let planets = PlanetsListController()          // a TableViewController
/// let navigation = NavigationController(root: planets)
/// planets.navigationItem.rightBarButtonItems = [planets.editButtonItem]
/// navigation.push(PlanetDetailController(planet: mercury))
/// navigation.pop()
/// ```
@MainActor
public final class NavigationController: ViewController {
    /// The screens, root first; the last one is shown.
    public private(set) var viewControllers: [ViewController]
    /// The theme the bar is drawn with.
    public var theme = Theme.standard

    /// Creates a navigation stack with a root screen.
    ///
    /// ```swift
    /// let navigation = NavigationController(root: zoosController)
    /// ```
    public init(root: ViewController) {
        viewControllers = [root]
        super.init(title: root.title)
        root.parent = self
    }

    /// The screen on top.
    ///
    /// ```swift
    /// navigation.topViewController.title
    /// ```
    public var topViewController: ViewController { viewControllers[viewControllers.count - 1] }

    /// The title in a tab bar: the root's tab title or title.
    override public var tabTitle: String? {
        get { super.tabTitle ?? viewControllers[0].tabTitle ?? viewControllers[0].title }
        set { super.tabTitle = newValue }
    }

    /// Pushes a screen on top.
    ///
    /// ```swift
    /// navigationController?.push(detail)
    /// ```
    public func push(_ controller: ViewController) {
        controller.parent = self
        viewControllers.append(controller)
        controller.appear()
        setNeedsDisplay()
    }

    /// Pops the top screen (never the root); returns it.
    ///
    /// ```swift
    /// navigationController?.pop()
    /// ```
    @discardableResult
    public func pop() -> ViewController? {
        guard viewControllers.count > 1 else { return nil }
        let popped = viewControllers.removeLast()
        popped.parent = nil
        topViewController.appear()
        setNeedsDisplay()
        return popped
    }

    /// Pops every screen above `controller` (nothing when it is not in the stack).
    ///
    /// ```swift
    /// navigation.pop(to: listController)
    /// ```
    public func pop(to controller: ViewController) {
        guard viewControllers.contains(where: { $0 === controller }) else { return }
        while topViewController !== controller && viewControllers.count > 1 { pop() }
    }

    /// Pops back to the root screen.
    ///
    /// ```swift
    /// navigation.popToRoot()
    /// ```
    public func popToRoot() {
        while viewControllers.count > 1 { pop() }
    }

    /// Quitting is allowed only at the root.
    ///
    /// ```swift
    /// navigation.canQuit // false after a push
    /// ```
    override public var canQuit: Bool { viewControllers.count == 1 && topViewController.canQuit }

    /// Whether the top screen is editing text.
    override public var isEditingText: Bool { topViewController.isEditingText }

    /// Calls `viewWillAppear` on the top screen.
    override public func viewWillAppear() {
        topViewController.appear()
    }

    /// Where the bar's buttons were last drawn, for clicks.
    var buttonFrames: [(Rect, BarButtonItem)] = []
    var backFrame: Rect?

    private var backTitle: String? {
        guard viewControllers.count > 1, !topViewController.navigationItem.hidesBackButton else { return nil }
        let previous = viewControllers[viewControllers.count - 2]
        return previous.navigationItem.backButtonTitle ?? (previous.title.isEmpty ? "Back" : previous.title)
    }

    /// Draws the bar (title, back, buttons), a separator, then the top screen.
    ///
    /// ```swift
    /// navigation.draw(into: &screen, in: screen.bounds)
    /// ```
    override public func draw(into screen: inout Screen, in rect: Rect) {
        frame = rect
        guard rect.height > 2 else {
            topViewController.frame = rect
            topViewController.draw(into: &screen, in: rect)
            return
        }
        let bar = rect.row(0)
        screen.fill(bar)
        buttonFrames = []
        backFrame = nil
        // Right buttons first: the title yields space to them.
        var right = bar.maxX
        for item in topViewController.navigationItem.rightBarButtonItems.reversed() {
            let label = "[" + item.title + "]"
            let width = DisplayWidth.of(label)
            guard right - width - 1 >= bar.x else { break }
            right -= width
            let style = item.isEnabled ? theme.barButton : theme.separator
            screen.draw(label, at: right, row: bar.y, style: style)
            buttonFrames.append((Rect(x: right, y: bar.y, width: width, height: 1), item))
            right -= 1
        }
        var left = bar.x
        if let leftItem = topViewController.navigationItem.leftBarButtonItem {
            let label = "[" + leftItem.title + "]"
            let used = screen.draw(label, at: left, row: bar.y, style: theme.barButton, maxWidth: max(0, (right - left) / 2))
            buttonFrames.append((Rect(x: left, y: bar.y, width: used, height: 1), leftItem))
            left += used + 1
        } else if let backTitle {
            let used = screen.draw("‹ " + backTitle, at: left, row: bar.y, style: theme.barButton, maxWidth: max(0, (right - left) / 3))
            backFrame = Rect(x: left, y: bar.y, width: used, height: 1)
            left += used + 1
        }
        // The title is centred on the whole bar when it fits, else in the space left.
        let title = topViewController.title
        let titleWidth = DisplayWidth.of(title)
        let centred = bar.x + (bar.width - titleWidth) / 2
        if centred >= left && centred + titleWidth <= right {
            screen.draw(title, at: centred, row: bar.y, style: theme.title)
        } else {
            screen.draw(title, in: Rect(x: left, y: bar.y, width: right - left, height: 1), style: theme.title, alignment: .center)
        }
        screen.fill(rect.row(1), style: theme.separator, character: "─")
        let content = rect.inset(top: 2)
        topViewController.frame = content
        topViewController.draw(into: &screen, in: content)
    }

    /// The top screen first; then Esc (back), bar-button keys and clicks.
    ///
    /// ```swift
    /// navigation.handle(.key(Key(.escape))) // pops when a screen was pushed
    /// ```
    override public func handle(_ event: InputEvent) -> Bool {
        if case .mouse(let mouse) = event, mouse.row == frame.y {
            return handleBarClick(mouse)
        }
        if topViewController.handle(event) { return true }
        guard case .key(let key) = event else { return false }
        if let item = barItem(for: key) {
            item.press()
            setNeedsDisplay()
            return true
        }
        if key == Key(.escape), viewControllers.count > 1 {
            pop()
            return true
        }
        return false
    }

    private func barItem(for key: Key) -> BarButtonItem? {
        let item = topViewController.navigationItem
        let items = item.rightBarButtonItems + (item.leftBarButtonItem.map { [$0] } ?? [])
        return items.first { $0.keys.contains(key) }
    }

    private func handleBarClick(_ mouse: MouseEvent) -> Bool {
        guard case .press(.left) = mouse.kind else { return true }
        if let backFrame, backFrame.contains(column: mouse.column, row: mouse.row) {
            pop()
            return true
        }
        for (rect, item) in buttonFrames where rect.contains(column: mouse.column, row: mouse.row) {
            item.press()
            setNeedsDisplay()
            return true
        }
        return true
    }

    /// The top screen's keys, then back and the bar buttons.
    ///
    /// ```swift
    /// navigation.keyHints.map(\.keys) // ["↑↓/jk", "Enter", ..., "e", "+/a", "Esc"]
    /// ```
    override public var keyHints: [KeyHint] {
        // While text is typed every key types: the bar's keys and Esc back do nothing.
        if topViewController.isEditingText { return topViewController.keyHints }
        var hints = topViewController.keyHints
        let item = topViewController.navigationItem
        for button in item.rightBarButtonItems + (item.leftBarButtonItem.map { [$0] } ?? []) where !button.keys.isEmpty {
            hints.append(KeyHint(button.keyNames, button.title == "+" ? "add" : button.title.lowercased()))
        }
        if viewControllers.count > 1 && item.leftBarButtonItem == nil {
            hints.append(KeyHint("Esc", "back"))
        }
        return hints
    }
}
