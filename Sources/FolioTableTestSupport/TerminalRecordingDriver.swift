import FolioTerminal

/// A driver for tests: keeps every frame, the ANSI bytes a real terminal would
/// have received for it, and an emulator that replays those bytes.
///
/// ```swift
/// let driver = TerminalRecordingDriver(columns: 60, rows: 16)
/// let app = Application(root: navigation, driver: driver)
/// app.render()
/// print(driver.screen.text)
/// #expect(driver.emulator.screen == driver.screen) // the diff was exact
/// ```
@MainActor
public final class TerminalRecordingDriver: TerminalDriver {
    /// The size the application draws at; change it to simulate a resize.
    public var size: TerminalSize
    /// Every frame presented, oldest first.
    public private(set) var frames: [Screen] = []
    /// The bytes written for each frame.
    public private(set) var writes: [[UInt8]] = []
    /// What a terminal receiving those bytes would show.
    public private(set) var emulator: TerminalEmulator
    private var renderer: ANSIRenderer

    /// Creates a recording terminal of a size.
    ///
    /// ```swift
    /// let driver = TerminalRecordingDriver(columns: 80, rows: 24, colors: false)
    /// ```
    public init(columns: Int, rows: Int, colors: Bool = true) {
        size = TerminalSize(columns: columns, rows: rows)
        emulator = TerminalEmulator(width: columns, height: rows)
        renderer = ANSIRenderer(colors: colors)
    }

    /// The last frame (a blank screen before the first).
    ///
    /// ```swift
    /// print(driver.screen.text)
    /// ```
    public var screen: Screen {
        frames.last ?? Screen(width: size.columns, height: size.rows)
    }

    /// Records a frame and replays its bytes.
    ///
    /// ```swift
    /// driver.present(screen); #expect(driver.emulator.screen == screen)
    /// ```
    public func present(_ screen: Screen) {
        if screen.width != emulator.screen.width || screen.height != emulator.screen.height {
            emulator = TerminalEmulator(width: screen.width, height: screen.height)
        }
        let bytes = renderer.render(screen)
        emulator.apply(bytes)
        frames.append(screen)
        writes.append(bytes)
    }

    /// Makes the next frame a full redraw.
    ///
    /// ```swift
    /// driver.invalidate() // the next frame starts by clearing
    /// ```
    public func invalidate() {
        renderer.invalidate()
    }
}

extension Application {
    /// An application on a recording terminal, with its first frame drawn.
    ///
    /// ```swift
    /// let (app, driver) = Application.recording(NavigationController(root: planets), columns: 60, rows: 20)
    /// app.send("j Enter")
    /// print(driver.screen.text)
    /// ```
    public static func recording(_ root: ViewController, columns: Int, rows: Int, colors: Bool = true)
        -> (Application, TerminalRecordingDriver)
    {
        let driver = TerminalRecordingDriver(columns: columns, rows: rows, colors: colors)
        let application = Application(root: root, driver: driver)
        application.render()
        return (application, driver)
    }
}
