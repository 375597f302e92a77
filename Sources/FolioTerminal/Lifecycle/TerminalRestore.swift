#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The state a signal handler needs to put the terminal back, prepared in
/// advance so that restoring uses only async-signal-safe calls: `write(2)`,
/// `tcsetattr(3)`, `dup2(2)`, `read(2)`, `lseek(2)`.
///
/// While a session is active, standard error goes to an unlinked temporary
/// file; restoring copies it to the real standard error after the terminal
/// is back, so that a crash message is printed on the normal screen instead
/// of vanishing with the alternate one.
enum TerminalRestore {
    /// Installed state; written only by `arm` / `disarm` on the main thread,
    /// read by signal handlers.
    nonisolated(unsafe) static var armed: Int32 = 0
    nonisolated(unsafe) static var descriptor: Int32 = -1
    nonisolated(unsafe) static var output: Int32 = -1
    /// The terminal's settings to restore. Kept on the heap: this toolchain
    /// emits a global `termios` 57 bytes long where the struct is 60, so
    /// assigning one wrote past the global (AddressSanitizer found it).
    nonisolated(unsafe) static let saved: UnsafeMutablePointer<termios> = {
        let settings = UnsafeMutablePointer<termios>.allocate(capacity: 1)
        settings.initialize(to: termios())
        return settings
    }()
    nonisolated(unsafe) static var exitBytes: UnsafeMutablePointer<UInt8>?
    nonisolated(unsafe) static var exitCount = 0
    nonisolated(unsafe) static var realStandardError: Int32 = -1
    nonisolated(unsafe) static var capturedStandardError: Int32 = -1
    nonisolated(unsafe) static var copyBuffer = UnsafeMutablePointer<UInt8>.allocate(capacity: 4096)
    nonisolated(unsafe) static var handlersInstalled = false

    /// Every signal whose default action ends the process (signal(7)): the
    /// terminal is restored, then the signal re-raised with that action.
    /// Real-time signals end it too; glibc keeps the first two for itself.
    static var signals: [Int32] {
        [
            SIGHUP, SIGINT, SIGQUIT, SIGILL, SIGTRAP, SIGABRT, SIGBUS, SIGFPE, SIGUSR1, SIGSEGV, SIGUSR2, SIGPIPE,
            SIGALRM, SIGTERM, SIGSTKFLT, SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF, SIGIO, SIGPWR, SIGSYS,
        ]
            + Array(__libc_current_sigrtmin()...__libc_current_sigrtmax())
    }

    /// The stack signal handlers run on, so that a stack overflow (SIGSEGV on
    /// a full stack) can still restore the terminal. Allocated once, never freed.
    nonisolated(unsafe) static var alternateStack: UnsafeMutableRawPointer?
    static let alternateStackSize = 256 * 1024

    /// Prepares restoring `descriptor` to `saved` and writing `bytes`.
    static func arm(descriptor: Int32, output: Int32, saved: termios, exitSequence bytes: [UInt8], captureStandardError: Bool) {
        exitBytes?.deallocate()  // disarmed before any re-arm, so no handler reads it
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: bytes.count)
        buffer.initialize(from: bytes, count: bytes.count)
        exitBytes = buffer
        exitCount = bytes.count
        self.descriptor = descriptor
        self.output = output
        self.saved.pointee = saved
        if captureStandardError {
            var template = Array("/tmp/folio-stderr-XXXXXX".utf8CString)
            let file = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            if file >= 0 {
                template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
                realStandardError = dup(STDERR_FILENO)
                capturedStandardError = file
                dup2(file, STDERR_FILENO)
            }
        }
        armed = 1
        installHandlers()
    }

    /// Restores the terminal now if armed; safe to call from a signal handler
    /// and more than once.
    static func restoreNow() {
        guard armed == 1 else { return }
        armed = 0
        if let exitBytes {
            var written = 0
            while written < exitCount {
                let result = write(output, exitBytes + written, exitCount - written)
                if result <= 0 { break }
                written += result
            }
        }
        _ = tcsetattr(descriptor, TCSAFLUSH, saved)
        if capturedStandardError >= 0 {
            dup2(realStandardError, STDERR_FILENO)
            lseek(capturedStandardError, 0, SEEK_SET)
            while true {
                let count = read(capturedStandardError, copyBuffer, 4096)
                if count <= 0 { break }
                _ = write(STDERR_FILENO, copyBuffer, count)
            }
            close(capturedStandardError)
            close(realStandardError)
            capturedStandardError = -1
            realStandardError = -1
        }
    }

    /// Takes every terminating signal for the process, once. Done first
    /// thing in a program (``TerminalSession/installSignalHandlers()``), not
    /// at the first `arm`: until then Swift's runtime holds the crash signals,
    /// and on a terminal its backtracer waits for a key instead of ending the
    /// process, while the app goes on to draw.
    static func installHandlers() {
        guard !handlersInstalled else { return }
        handlersInstalled = true
        installAlternateStack()
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for number in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = terminalSignalHandler
            action.sa_flags = SA_ONSTACK
            sigemptyset(&action.sa_mask)
            sigaction(number, &action, nil)
            sigaddset(&unblock, number)
        }
        // A parent may have left these blocked; the terminal must still be restored.
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
        atexit(terminalExitHandler)
    }
}

extension TerminalRestore {
    /// Gives the calling (main) thread a stack of its own for signal handlers.
    static func installAlternateStack() {
        guard alternateStack == nil, let memory = malloc(alternateStackSize) else { return }
        alternateStack = memory
        var stack = stack_t(ss_sp: memory, ss_flags: 0, ss_size: alternateStackSize)
        sigaltstack(&stack, nil)
    }
}

/// Restores the terminal, then dies of the same signal with its default action.
private func terminalSignalHandler(_ number: Int32) {
    TerminalRestore.restoreNow()
    signal(number, SIG_DFL)
    raise(number)
}

/// Restores the terminal on a normal `exit`.
private func terminalExitHandler() {
    TerminalRestore.restoreNow()
}
