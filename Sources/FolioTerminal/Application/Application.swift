import Dispatch

/// The running UI: a root screen, the driver frames go to, and the overlays
/// above the screens (alerts, the HUD, help, the key-hint bar).
///
/// Events go to the root screen, which passes them down to the screen on
/// top; what no screen uses is handled here: `?` shows help, `q` quits from a
/// root screen, Ctrl-C always quits (both first let a save still waiting
/// for the store land). Use `Application.run(_:)` for a real
/// terminal, or create one on a recording driver in tests.
/// ```swift
/// let list = PlanetsListController()                  // a TableViewController
/// let navigation = NavigationController(root: list)
/// try await Application.run(navigation)               // returns when the user quits
///
/// // In a test:
/// let driver = TerminalRecordingDriver(columns: 60, rows: 20)
/// let app = Application(root: navigation, driver: driver)
/// app.send("j j Enter")                               // FolioTestSupport key script
/// print(driver.screen.text)
/// ```
@MainActor
public final class Application {
    /// The root screen (usually a navigation or tab bar controller); setting
    /// it shows another screen tree (a launcher opening an app).
    ///
    /// ```swift
    /// app.root = NavigationController(root: PlanetsListController())
    /// ```
    public var root: ViewController {
        didSet {
            oldValue.attachedApplication = nil
            root.attachedApplication = self
            root.appear()
            setNeedsDisplay()
        }
    }
    /// Where frames go.
    public let driver: any TerminalDriver
    /// The theme the overlays are drawn with.
    public var theme = Theme.standard
    /// Alerts waiting, the shown one last.
    public internal(set) var presentedAlerts: [AlertController] = []
    /// The HUD message showing, if any.
    public private(set) var hudText: String?
    /// Whether the `?` help overlay is showing.
    public internal(set) var isShowingHelp = false {
        didSet { if !isShowingHelp { helpOffset = 0 } }
    }
    /// The first help line shown, when help scrolls.
    var helpOffset = 0
    /// Whether help had more keys than room when last drawn.
    var helpScrolls = false
    /// False once the user has quit.
    public private(set) var isRunning = true
    /// How long a HUD message stays, in seconds.
    ///
    /// ```swift
    /// app.hudDuration = 1.0
    /// ```
    public var hudDuration = 1.5
    var parser = InputParser()
    /// Called once when the user quits (the run loop's continuation).
    var quitHandler: (() -> Void)?
    /// Whether work the user started has not ended yet (a save waiting for
    /// the store): `q` and Ctrl-C wait for it (see ``requestQuit(now:)``).
    package var hasUnfinishedWork: (@MainActor () -> Bool)?
    /// Whether a quit waits for unfinished work to end.
    package internal(set) var quitsWhenFinished = false
    /// Alerts presented after the run loop ended, which no screen showed.
    package private(set) static var alertsAfterQuit: [AlertController] = []
    /// Suspends the process on Ctrl-Z (set by `run`; tests have none).
    var suspendHandler: (() -> Void)?
    var needsDisplay = true
    /// Bytes read from the terminal so far (the debug state reports them).
    package var inputBytesReceived = 0
    /// When the input now pending (a lone ESC) arrived.
    var pendingInputSince: DispatchTime?
    /// Frames composed so far: an idle application composes none.
    package private(set) var framesComposed = 0
    /// Where the debug state goes after each frame (`FOLIO_DEBUG_STATE=1`).
    package var debugStateSink: ((String) -> Void)?
    private var displayScheduled = false
    private var hudGeneration = 0

    /// Creates an application drawing to a driver.
    ///
    /// ```swift
    /// let app = Application(root: tabs, driver: TerminalRecordingDriver(columns: 80, rows: 24))
    /// ```
    public init(root: ViewController, driver: any TerminalDriver) {
        self.root = root
        self.driver = driver
        root.attachedApplication = self
        root.appear()
    }

    /// The alert on top, if any.
    ///
    /// ```swift
    /// app.presentedAlert?.title // "Delete Planet"
    /// ```
    public var presentedAlert: AlertController? { presentedAlerts.last }

    /// Shows an alert or action sheet over everything.
    ///
    /// ```swift
    /// app.present(alert)
    /// ```
    public func present(_ alert: AlertController) {
        // No screen shows it after a quit (a save refused once Ctrl-C gave the terminal back): kept to be reported.
        if !isRunning { Self.alertsAfterQuit.append(alert) }
        alert.prepareFocus()
        presentedAlerts.append(alert)
        setNeedsDisplay()
    }

    /// A lasting state shown at the right of the hint bar, before `? help`,
    /// until set to nil: what the user must know whatever screen is up
    /// (a store that cannot be reached).
    ///
    /// ```swift
    /// app.status = "offline"
    /// ```
    public var status: String? {
        didSet { if status != oldValue { setNeedsDisplay() } }
    }

    /// A note in place of the key hints until the next key or click: how to
    /// do what the user tried ("press e first"), a limit reached.
    public internal(set) var notice: String?

    /// Shows a note in the hint bar until the next key or click.
    ///
    /// ```swift
    /// app.showNotice("Rows are reordered in edit mode: press e, then K/J")
    /// ```
    public func showNotice(_ text: String) {
        notice = text
        setNeedsDisplay()
    }

    /// Shows a transient message ("Tagged", "Updated") for `hudDuration` seconds.
    ///
    /// ```swift
    /// app.showHUD("Tagged")
    /// ```
    public func showHUD(_ text: String) {
        hudText = text
        hudGeneration += 1
        let generation = hudGeneration
        setNeedsDisplay()
        DispatchQueue.main.asyncAfter(deadline: .now() + hudDuration) { [weak self] in
            guard let self, self.hudGeneration == generation else { return }
            self.dismissHUD()
        }
    }

    /// Hides the HUD message now.
    ///
    /// ```swift
    /// app.dismissHUD()
    /// ```
    public func dismissHUD() {
        guard hudText != nil else { return }
        hudText = nil
        setNeedsDisplay()
    }

    /// Stops the run loop; the terminal is restored by `run`.
    ///
    /// ```swift
    /// app.quit()
    /// ```
    public func quit() {
        guard isRunning else { return }
        isRunning = false
        let handler = quitHandler
        quitHandler = nil
        handler?()
    }

    /// Asks for a new frame: drawn soon on the main queue (coalesced), or at
    /// the end of the current event.
    ///
    /// ```swift
    /// app.setNeedsDisplay()
    /// ```
    public func setNeedsDisplay() {
        needsDisplay = true
        guard !displayScheduled else { return }
        displayScheduled = true
        DispatchQueue.main.async { [weak self] in
            guard let self else { return }
            self.displayScheduled = false
            self.renderIfNeeded()
        }
    }

    /// Draws a frame if something changed since the last one.
    ///
    /// ```swift
    /// app.renderIfNeeded()
    /// ```
    public func renderIfNeeded() {
        if needsDisplay { render() }
    }

    /// Draws a frame now and hands it to the driver.
    ///
    /// - Complexity: O(width × height) plus the visible rows of the screen shown.
    /// ```swift
    /// app.render()
    /// ```
    public func render() {
        needsDisplay = false
        let size = driver.size
        var screen = Screen(width: max(0, size.columns), height: max(0, size.rows))
        compose(into: &screen)
        framesComposed += 1
        driver.present(screen)
        emitDebugState()
    }

    /// Draws the screens and overlays into a screen.
    func compose(into screen: inout Screen) {
        let bounds = screen.bounds
        guard bounds.height > 0, bounds.width > 0 else { return }
        let content = bounds.inset(bottom: bounds.height > 3 ? 1 : 0)
        root.frame = content
        root.draw(into: &screen, in: content)
        if content.height < bounds.height {
            drawHintBar(into: &screen, row: bounds.maxY - 1)
        }
        if let alert = presentedAlert {
            screen.restyle(bounds) { $0.attributes.insert(.dim) }
            alert.theme = theme
            alert.draw(into: &screen, bounds: content)
        }
        if let hudText { drawHUD(hudText, into: &screen, bounds: content) }
        if isShowingHelp { drawHelp(into: &screen, bounds: content) }
    }
}
