/// Screens side by side, one shown at a time, with a tab bar on the bottom row.
///
/// Tab moves to the next tab, Shift-Tab to the previous, 1-9 picks one, and a
/// click on a tab selects it.
/// ```swift
/// let tabs = TabBarController(tabs: [
///     NavigationController(root: tagController),
///     NavigationController(root: locationsController),
/// ])
/// tabs.selectedIndex = 1
/// ```
@MainActor
public final class TabBarController: ViewController {
    /// The tabs, left to right.
    public private(set) var tabs: [ViewController]
    /// The theme the bar is drawn with.
    public var theme = Theme.standard
    private var tabFrames: [Rect] = []

    /// Creates tabs; the first is selected.
    ///
    /// ```swift
    /// let tabs = TabBarController(tabs: [first, second])
    /// ```
    public init(tabs: [ViewController]) {
        precondition(!tabs.isEmpty, "TabBarController needs at least one tab")
        self.tabs = tabs
        super.init(title: tabs[0].title)
        for tab in tabs { tab.parent = self }
    }

    /// The index of the tab shown.
    ///
    /// ```swift
    /// tabs.selectedIndex = 0
    /// ```
    public var selectedIndex = 0 {
        didSet {
            precondition(
                selectedIndex >= 0 && selectedIndex < tabs.count,
                "selectedIndex \(selectedIndex) out of range: there are \(tabs.count) tabs")
            if oldValue != selectedIndex {
                selectedViewController.appear()
                setNeedsDisplay()
            }
        }
    }

    /// The tab shown.
    ///
    /// ```swift
    /// tabs.selectedViewController.title
    /// ```
    public var selectedViewController: ViewController { tabs[selectedIndex] }

    /// `q` quits only from the selected tab's root.
    override public var canQuit: Bool { selectedViewController.canQuit }

    /// Whether the selected tab is editing text.
    override public var isEditingText: Bool { selectedViewController.isEditingText }

    /// Calls `viewWillAppear` on the selected tab.
    override public func viewWillAppear() {
        selectedViewController.appear()
    }

    /// Draws the selected tab, then the tab bar below it.
    ///
    /// ```swift
    /// tabs.draw(into: &screen, in: screen.bounds)
    /// ```
    override public func draw(into screen: inout Screen, in rect: Rect) {
        frame = rect
        let content = rect.inset(bottom: 2)
        selectedViewController.frame = content
        selectedViewController.draw(into: &screen, in: content)
        guard rect.height >= 2 else { return }
        screen.fill(rect.row(rect.height - 2), style: theme.separator, character: "─")
        let bar = rect.row(rect.height - 1)
        screen.fill(bar)
        tabFrames = []
        var x = bar.x + 1
        for (index, tab) in tabs.enumerated() {
            let name = tab.tabTitle ?? tab.title
            let selected = index == selectedIndex
            let label = selected ? "[\(index + 1) \(name)]" : " \(index + 1) \(name) "
            let style = selected ? theme.highlighted.adding(.bold) : .plain
            let used = screen.draw(label, at: x, row: bar.y, style: style, maxWidth: bar.maxX - x)
            tabFrames.append(Rect(x: x, y: bar.y, width: used, height: 1))
            x += used + 2
        }
    }

    /// The selected tab first; then Tab, Shift-Tab, 1-9 and clicks on tabs.
    ///
    /// ```swift
    /// tabs.handle(.key(Key(.tab))) // selects the next tab
    /// ```
    override public func handle(_ event: InputEvent) -> Bool {
        if case .mouse(let mouse) = event, mouse.row >= frame.maxY - 2 {
            guard case .press(.left) = mouse.kind else { return true }
            if let index = tabFrames.firstIndex(where: { $0.contains(column: mouse.column, row: mouse.row) }) {
                selectedIndex = index
            }
            return true
        }
        if selectedViewController.handle(event) { return true }
        guard case .key(let key) = event else { return false }
        switch key.code {
        case .tab where key.modifiers.isEmpty:
            selectedIndex = (selectedIndex + 1) % tabs.count
            return true
        case .backTab:
            selectedIndex = (selectedIndex + tabs.count - 1) % tabs.count
            return true
        case .character(let character) where key.modifiers.isEmpty:
            if let digit = character.wholeNumberValue, digit >= 1, digit <= min(9, tabs.count) {
                selectedIndex = digit - 1
                return true
            }
            return false
        default:
            return false
        }
    }

    /// The selected tab's keys, then the tab keys.
    ///
    /// ```swift
    /// tabs.keyHints.last?.keys // "Tab/1-2"
    /// ```
    override public var keyHints: [KeyHint] {
        // While text is typed, Tab and digits type (or do nothing): no tab keys.
        if selectedViewController.isEditingText { return selectedViewController.keyHints }
        return selectedViewController.keyHints + [KeyHint("Tab/1-\(min(9, tabs.count))", "switch tab")]
    }
}
