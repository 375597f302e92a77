/// Where frames go: a real terminal (`ANSIDriver`) or a recording for tests.
///
/// The application draws a `Screen` of `size` and hands it to `present`.
/// ```swift
/// let driver: any TerminalDriver = try ANSIDriver(options: .current)
/// driver.present(screen)
/// ```
@MainActor
public protocol TerminalDriver: AnyObject {
    /// The terminal's current size.
    var size: TerminalSize { get }
    /// Shows a frame (a driver writes only what changed).
    func present(_ screen: Screen)
    /// Makes the next frame a full redraw.
    func invalidate()
}

extension TerminalDriver {
    /// Default: nothing cached, nothing to forget.
    public func invalidate() {}
}

/// A terminal size in columns and rows.
///
/// ```swift
/// let size = TerminalSize(columns: 120, rows: 40)
/// ```
public struct TerminalSize: Hashable, Sendable {
    /// Columns.
    public var columns: Int
    /// Rows.
    public var rows: Int
    /// Creates a size.
    ///
    /// ```swift
    /// TerminalSize(columns: 80, rows: 24)
    /// ```
    public init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
    }
}
