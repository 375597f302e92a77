#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The state a signal handler needs to put the terminal back, prepared in
/// advance so that restoring uses only async-signal-safe calls: `write(2)`,
/// `tcsetattr(3)`, `dup2(2)`, `read(2)`, `lseek(2)`, `close(2)`.
///
/// Every stored property is a constant-initialised value: a Swift static
/// with any other initialiser is built lazily, on first use, through
/// `swift_once` — and if that first use is in a handler that interrupted
/// `malloc`, the allocation waits for a lock its own thread holds, forever.
/// Buffers are therefore allocated by ``installHandlers()``, before any
/// handler can run; `SignalHandlerSafetyTests` checks the built program.
///
/// While a session is active, standard error goes to an unlinked temporary
/// file; restoring copies it to the real standard error after the terminal
/// is back, so that a crash message is printed on the normal screen instead
/// of vanishing with the alternate one.
enum TerminalRestore {
    /// Installed state; written only by `arm` and `restoreNow` on the
    /// owner thread, read by signal handlers.
    nonisolated(unsafe) static var armed: Int32 = 0
    /// The thread that draws (the one that installed the handlers or last
    /// armed). A signal another thread takes is sent on to it, so that the
    /// restore never races with drawing, or with arming after the check.
    nonisolated(unsafe) static var owner: pthread_t = 0
    nonisolated(unsafe) static var descriptor: Int32 = -1
    nonisolated(unsafe) static var output: Int32 = -1
    /// The terminal's settings to restore. Kept on the heap: this toolchain
    /// emits a global `termios` 57 bytes long where the struct is 60, so
    /// assigning one wrote past the global (AddressSanitizer found it).
    nonisolated(unsafe) static var saved: UnsafeMutablePointer<termios>?
    nonisolated(unsafe) static var exitBytes: UnsafeMutablePointer<UInt8>?
    nonisolated(unsafe) static var exitCount = 0
    nonisolated(unsafe) static var realStandardError: Int32 = -1
    nonisolated(unsafe) static var capturedStandardError: Int32 = -1
    nonisolated(unsafe) static var copyBuffer: UnsafeMutablePointer<UInt8>?
    static let copyBufferSize = 4096
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
        installHandlers()
        owner = pthread_self()
        self.descriptor = descriptor
        self.output = output
        self.saved?.pointee = saved
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
    }

    /// Restores the terminal now if armed; safe to call from a signal handler
    /// and more than once.
    static func restoreNow() {
        guard armed == 1 else { return }
        if let exitBytes {
            var written = 0
            while written < exitCount {
                let result = write(output, exitBytes + written, exitCount - written)
                if result <= 0 { break }
                written += result
            }
        }
        if let saved {
            _ = tcsetattr(descriptor, TCSAFLUSH, saved)
        }
        if capturedStandardError >= 0, let copyBuffer {
            dup2(realStandardError, STDERR_FILENO)
            let captured = capturedStandardError, real = realStandardError
            capturedStandardError = -1
            realStandardError = -1
            lseek(captured, 0, SEEK_SET)
            while true {
                let count = read(captured, copyBuffer, copyBufferSize)
                if count <= 0 { break }
                _ = write(STDERR_FILENO, copyBuffer, count)
            }
            close(captured)
            close(real)
        }
        // Cleared last: a handler that interrupts a restore on this thread
        // finds it still armed and restores again, which is harmless.
        armed = 0
    }

    /// Takes every terminating signal for the process, once. Done first
    /// thing in a program (``TerminalSession/installSignalHandlers()``), not
    /// at the first `arm`: until then Swift's runtime holds the crash signals,
    /// and on a terminal its backtracer waits for a key instead of ending the
    /// process, while the app goes on to draw.
    static func installHandlers() {
        guard !handlersInstalled else { return }
        handlersInstalled = true
        owner = pthread_self()
        allocateBuffers()
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
    /// Allocates what restoring writes into or reads from, while no handler
    /// is installed yet (see the type's note on `swift_once`).
    static func allocateBuffers() {
        let settings = UnsafeMutablePointer<termios>.allocate(capacity: 1)
        settings.initialize(to: termios())
        saved = settings
        copyBuffer = UnsafeMutablePointer<UInt8>.allocate(capacity: copyBufferSize)
    }

    /// Gives the calling (main) thread a stack of its own for signal handlers.
    static func installAlternateStack() {
        guard alternateStack == nil, let memory = malloc(alternateStackSize) else { return }
        alternateStack = memory
        var stack = stack_t(ss_sp: memory, ss_flags: 0, ss_size: alternateStackSize)
        sigaltstack(&stack, nil)
    }
}

/// Restores the terminal, then dies of the same signal with its default action.
///
/// kill(2) hands a signal to any thread. Taken on one that does not draw, it
/// is sent on to the owner and this thread waits: restoring here would race
/// with the owner drawing (or arming just after `armed` was read), and the
/// process could die with the terminal raw. The owner's handler ends the process.
private func terminalSignalHandler(_ number: Int32) {
    let owner = TerminalRestore.owner
    if owner != 0, pthread_self() != owner, pthread_kill(owner, number) == 0 {
        while true { pause() }
    }
    TerminalRestore.restoreNow()
    signal(number, nil)  // SIG_DFL, which Glibc's overlay exposes only through a getter
    raise(number)
}

/// Restores the terminal on a normal `exit`.
private func terminalExitHandler() {
    TerminalRestore.restoreNow()
}
