/// What a screen puts in the navigation bar while it is on top.
///
/// ```swift
/// controller.navigationItem.rightBarButtonItems = [controller.editButtonItem, BarButtonItem(system: .add) { add() }]
/// ```
@MainActor
public struct NavigationItem {
    /// Buttons at the right, left to right.
    ///
    /// ```swift
    /// item.rightBarButtonItems = [editButtonItem, BarButtonItem(system: .add) { add() }]
    /// ```
    public var rightBarButtonItems: [BarButtonItem] = []
    /// A button replacing the back button at the left (for example Cancel).
    ///
    /// ```swift
    /// item.leftBarButtonItem = BarButtonItem(system: .cancel) { navigationController?.pop() }
    /// ```
    public var leftBarButtonItem: BarButtonItem?
    /// The back button's title on the screen pushed above this one; the
    /// title of this screen when `nil`.
    ///
    /// ```swift
    /// zoos.navigationItem.backButtonTitle = "Zoos"
    /// ```
    public var backButtonTitle: String?
    /// Whether the back button is hidden.
    public var hidesBackButton = false

    /// Creates an empty item.
    ///
    /// ```swift
    /// var item = NavigationItem()
    /// ```
    public init() {}
}
