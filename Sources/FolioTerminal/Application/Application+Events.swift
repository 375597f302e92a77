import Dispatch

extension Application {
    /// Parses input bytes, handles the events and draws a frame.
    /// A lone ESC waits for `flushInput()` (the run loop calls it after a pause).
    ///
    /// ```swift
    /// app.receive(Array("\u{1B}[B".utf8)) // Down
    /// ```
    public func receive(_ bytes: [UInt8]) {
        receive(bytes, at: .now())
    }

    /// Receives bytes read at `time`. A lone ESC that has already waited its
    /// pause is Esc, even when the flush timer has not run yet (a busy main
    /// queue): the key read after it is never taken for Alt plus that key.
    func receive(_ bytes: [UInt8], at time: DispatchTime) {
        if parser.hasPending, let since = pendingInputSince,
            time.uptimeNanoseconds >= since.uptimeNanoseconds + Self.escapePause
        {
            for event in parser.flush() { handle(event) }
            pendingInputSince = nil
        }
        for event in parser.feed(bytes) { handle(event) }
        pendingInputSince = parser.hasPending ? (pendingInputSince ?? time) : nil
        renderIfNeeded()
    }

    /// How long a lone ESC waits for the rest of a sequence, in nanoseconds.
    static let escapePause: UInt64 = 30_000_000

    /// Treats pending input as complete (a lone ESC becomes Esc).
    ///
    /// ```swift
    /// app.flushInput()
    /// ```
    public func flushInput() {
        for event in parser.flush() { handle(event) }
        pendingInputSince = nil
        renderIfNeeded()
    }

    /// Whether input bytes are waiting for more (a lone ESC).
    ///
    /// ```swift
    /// if app.hasPendingInput { app.flushInput() }
    /// ```
    public var hasPendingInput: Bool { parser.hasPending }

    /// Handles one event: overlays first, then the screens, then the
    /// application's own keys (`?`, `q`, Ctrl-C).
    ///
    /// ```swift
    /// app.handle(.key(Key(.down)))
    /// ```
    public func handle(_ event: InputEvent) {
        needsDisplay = true
        notice = nil
        if case .key(let key) = event, key == Key(.character("c"), modifiers: .control) {
            requestQuit(now: quitsWhenFinished)
            return
        }
        if case .key(let key) = event, key == Key(.character("z"), modifiers: .control), let suspendHandler {
            suspendHandler()
            return
        }
        if isShowingHelp {
            handleHelp(event)
            return
        }
        if let alert = presentedAlert {
            let outcome: AlertController.Outcome
            switch event {
            case .key(let key): outcome = alert.handle(key)
            case .mouse(let mouse): outcome = alert.handle(mouse)
            case .paste: outcome = .stay
            }
            if case .dismiss(let action) = outcome {
                presentedAlerts.removeAll { $0 === alert }
                if let action { action.handler?(action) }
            }
            return
        }
        if root.handle(event) { return }
        guard case .key(let key) = event, key.modifiers.isEmpty, !root.isEditingText else { return }
        switch key.code {
        case .character("?"):
            isShowingHelp = true
        case .character("q") where root.canQuit:
            requestQuit(now: false)
        case .character("S"):
            showSyncDetails()
        default:
            break
        }
    }

    /// The keys of the screen shown, with the application's own: innermost
    /// first, and a key that an inner screen uses is not offered again by an
    /// outer one (Esc hides revealed actions before it goes back). While
    /// text is typed, `?` and `q` type, so they are not offered.
    ///
    /// ```swift
    /// app.keyHints.map(\.keys)
    /// ```
    public var keyHints: [KeyHint] {
        if let alert = presentedAlert { return alert.keyHints }
        var hints = root.keyHints
        if !root.isEditingText {
            hints.append(KeyHint("?", "help"))
            if root.canQuit { hints.append(KeyHint("q", "quit")) }
            if root.syncIndicator?.details != nil { hints.append(KeyHint("S", "sync details", inBar: false)) }
        }
        return KeyHint.innermostFirst(hints)
    }

    /// The root screen's sync details in an alert, when it has them.
    private func showSyncDetails() {
        guard let details = root.syncIndicator?.details?() else { return }
        let alert = AlertController(title: details.title, message: details.lines.joined(separator: "\n"), preferredStyle: .alert)
        alert.addAction(AlertAction(title: "OK", style: .cancel))
        present(alert)
    }

    /// While help shows: when it does not fit, ↑↓ (and j/k, PgUp/PgDn)
    /// scroll it; any other key or a click closes it.
    private func handleHelp(_ event: InputEvent) {
        switch event {
        case .key(let key) where helpScrolls:
            switch (key.code, key.character) {
            case (.up, _), (_, "k"): helpOffset = max(0, helpOffset - 1)
            case (.down, _), (_, "j"): helpOffset += 1
            case (.pageUp, _): helpOffset = max(0, helpOffset - 5)
            case (.pageDown, _): helpOffset += 5
            default: isShowingHelp = false
            }
        case .key:
            isShowingHelp = false
        case .mouse(let mouse):
            if case .press = mouse.kind { isShowingHelp = false }
        case .paste:
            isShowingHelp = false
        }
    }
}
