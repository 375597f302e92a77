import Dispatch

#if canImport(Glibc)
    import Glibc
#endif

extension Application {
    /// Runs `root` in the real terminal until the user quits, then restores
    /// the terminal and returns. While it waits, the main actor is free:
    /// input, resize signals, timers and live store notifications are all
    /// serviced on the main queue, and a frame is drawn after each of them.
    ///
    /// ```swift
    /// // main.swift
    /// let navigation = NavigationController(root: PlanetsListController(store: store))
    /// try await Application.run(navigation)
    /// ```
    public static func run(_ root: ViewController, options: TerminalOptions = .current) async throws(TerminalError) {
        let session = try TerminalSession(options: options)
        try session.enter()
        defer { session.restore() }
        let application = Application(root: root, driver: ANSIDriver(session: session))
        if ProcessEnvironment.variables[debugStateVariable] == "1" {
            application.debugStateSink = { session.writeAll(Array($0.utf8)) }
        }
        let sources = application.startReading(session)
        application.suspendHandler = { [weak application] in
            // Ctrl-Z: give the terminal back, stop, and take it again on SIGCONT.
            session.restore()
            raise(SIGSTOP)  // to this thread: it stops before running on
            try? session.enter()
            application?.driver.invalidate()
            application?.render()
        }
        application.render()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            application.quitHandler = { continuation.resume() }
        }
        for source in sources { source.cancel() }
    }

    /// Reads input and resize signals on the main queue.
    private func startReading(_ session: TerminalSession) -> [any DispatchSourceProtocol] {
        let descriptor = session.descriptor
        let input = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: .main)
        // A dispatch source's handler is not typed by its queue: the main queue is checked at run time.
        input.setEventHandler { [weak self] in
            MainActor.assumeIsolated {
                guard let self else { return }
                var buffer = [UInt8](repeating: 0, count: 4096)
                let count = read(descriptor, &buffer, buffer.count)
                guard count > 0 else {
                    // End of input or a lasting error (EIO after a hang-up): the terminal went away.
                    if count == 0 || (errno != EAGAIN && errno != EINTR) { self.quit() }
                    return
                }
                self.inputBytesReceived += count
                self.receive(Array(buffer[..<count]))
                if self.hasPendingInput { self.scheduleInputFlush() }
                self.emitDebugState()
            }
        }
        input.resume()
        let resize = DispatchSource.makeSignalSource(signal: SIGWINCH, queue: .main)
        resize.setEventHandler { [weak self] in
            MainActor.assumeIsolated {
                guard let self else { return }
                self.driver.invalidate()
                self.render()
            }
        }
        resize.resume()
        // No periodic frame: an idle application draws nothing. What changes
        // outside an event (a store notification, a HUD timer) asks for a
        // frame with setNeedsDisplay().
        return [input, resize]
    }

    /// A lone ESC becomes Esc when nothing follows within the pause.
    private func scheduleInputFlush() {
        DispatchQueue.main.asyncAfter(deadline: .now() + .milliseconds(Int(Self.escapePause / 1_000_000))) { [weak self] in
            guard let self, self.hasPendingInput else { return }
            self.flushInput()
        }
    }
}
