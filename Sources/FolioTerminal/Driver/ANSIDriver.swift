/// The driver for a real terminal: renders frames with `ANSIRenderer` and
/// writes only the difference to the terminal in one `write`.
///
/// ```swift
/// let session = try TerminalSession(options: .current)
/// try session.enter()
/// let driver = ANSIDriver(session: session)
/// driver.present(screen)
/// ```
@MainActor
public final class ANSIDriver: TerminalDriver {
    /// The session whose terminal is drawn on.
    public let session: TerminalSession
    private var renderer: ANSIRenderer
    /// Total bytes written so far.
    public private(set) var bytesWritten = 0

    /// Creates a driver for an entered session.
    ///
    /// ```swift
    /// let driver = ANSIDriver(session: session)
    /// ```
    public init(session: TerminalSession) {
        self.session = session
        self.renderer = ANSIRenderer(colors: session.options.colors)
    }

    /// The terminal's size now.
    ///
    /// ```swift
    /// let columns = driver.size.columns
    /// ```
    public var size: TerminalSize { TerminalSession.size(of: session.descriptor) }

    /// Writes the difference from the previous frame.
    ///
    /// ```swift
    /// driver.present(screen)
    /// ```
    public func present(_ screen: Screen) {
        let bytes = renderer.render(screen)
        guard !bytes.isEmpty else { return }
        bytesWritten += bytes.count
        session.writeAll(bytes)
    }

    /// Makes the next frame a full redraw (after a resize).
    ///
    /// ```swift
    /// driver.invalidate() // after SIGWINCH
    /// ```
    public func invalidate() {
        renderer.invalidate()
    }
}
