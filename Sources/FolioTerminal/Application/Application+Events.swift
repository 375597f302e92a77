extension Application {
    /// Parses input bytes, handles the events and draws a frame.
    /// A lone ESC waits for `flushInput()` (the run loop calls it after a pause).
    ///
    /// ```swift
    /// app.receive(Array("\u{1B}[B".utf8)) // Down
    /// ```
    public func receive(_ bytes: [UInt8]) {
        for event in parser.feed(bytes) { handle(event) }
        renderIfNeeded()
    }

    /// Treats pending input as complete (a lone ESC becomes Esc).
    ///
    /// ```swift
    /// app.flushInput()
    /// ```
    public func flushInput() {
        for event in parser.flush() { handle(event) }
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
        if case .key(let key) = event, key == Key(.character("c"), modifiers: .control) {
            quit()
            return
        }
        if case .key(let key) = event, key == Key(.character("z"), modifiers: .control), let suspendHandler {
            suspendHandler()
            return
        }
        if isShowingHelp {
            if case .key = event { isShowingHelp = false }
            if case .mouse(let mouse) = event, case .press = mouse.kind { isShowingHelp = false }
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
                action?.handler?()
            }
            return
        }
        if root.handle(event) { return }
        guard case .key(let key) = event, key.modifiers.isEmpty, !root.isEditingText else { return }
        switch key.code {
        case .character("?"):
            isShowingHelp = true
        case .character("q") where root.canQuit:
            quit()
        default:
            break
        }
    }

    /// The keys of the screen shown, with the application's own.
    ///
    /// ```swift
    /// app.keyHints.map(\.keys)
    /// ```
    public var keyHints: [KeyHint] {
        if let alert = presentedAlert { return alert.keyHints }
        var hints = root.keyHints
        hints.append(KeyHint("?", "help"))
        if root.canQuit { hints.append(KeyHint("q", "quit")) }
        return hints
    }
}
