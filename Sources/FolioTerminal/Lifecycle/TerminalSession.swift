#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The terminal while Folio owns it: raw mode, the alternate screen, a hidden
/// cursor, SGR mouse reporting and bracketed paste.
///
/// Everything is undone by `restore()`, on a normal `exit`, and on every
/// signal whose default action ends the process (SIGINT, SIGTERM, SIGHUP,
/// SIGPIPE, SIGUSR1/2, SIGALRM, SIGXCPU, SIGSYS, real-time signals, and the
/// crash signals SIGILL, SIGTRAP, SIGABRT, SIGSEGV...), before anything else
/// is printed; the signal is then re-raised with its default action. The
/// handlers run on an alternate signal stack, so a stack overflow restores
/// the terminal too.
/// ```swift
/// let session = try TerminalSession(options: .current)
/// try session.enter()
/// defer { session.restore() }
/// ```
public final class TerminalSession {
    /// The terminal's input descriptor (its modes are set here).
    public let descriptor: Int32
    /// Where frames are written: standard output when it is the terminal,
    /// else the input descriptor.
    public let outputDescriptor: Int32
    /// Colours and mouse.
    public let options: TerminalOptions
    private var saved = termios()
    private var hasSaved = false
    private var active = false

    /// Opens a session on a terminal descriptor (standard input by default).
    ///
    /// ```swift
    /// let session = try TerminalSession(options: TerminalOptions(colors: false, mouse: false))
    /// ```
    public init(options: TerminalOptions, descriptor: Int32 = STDIN_FILENO) throws(TerminalError) {
        guard isatty(descriptor) == 1 else { throw TerminalError.notATerminal(descriptor: descriptor) }
        self.descriptor = descriptor
        self.outputDescriptor = isatty(STDOUT_FILENO) == 1 ? STDOUT_FILENO : descriptor
        self.options = options
    }

    /// The bytes that set the terminal up.
    ///
    /// ```swift
    /// TerminalSession.enterSequence(mouse: false) // alternate screen, hide cursor...
    /// ```
    public static func enterSequence(mouse: Bool) -> String {
        "\u{1B}[?1049h\u{1B}[?25l\u{1B}[?7l\u{1B}[?2004h" + (mouse ? "\u{1B}[?1002h\u{1B}[?1006h" : "") + "\u{1B}[H\u{1B}[2J"
    }

    /// The bytes that undo `enterSequence`, written on every exit path.
    ///
    /// ```swift
    /// TerminalSession.exitSequence(mouse: true).contains("\u{1B}[?1049l") // true
    /// ```
    public static func exitSequence(mouse: Bool) -> String {
        "\u{1B}[0m" + (mouse ? "\u{1B}[?1006l\u{1B}[?1002l" : "") + "\u{1B}[?2004l\u{1B}[?7h\u{1B}[?25h\u{1B}[?1049l"
    }

    /// Enters raw mode and the alternate screen, and arms the restore paths.
    ///
    /// ```swift
    /// try session.enter()
    /// ```
    public func enter() throws(TerminalError) {
        guard !active else { return }
        // The modes from before the first enter are the ones to restore, also
        // after a suspend (a shell may hand the job back its raw modes on `fg`).
        if !hasSaved {
            guard tcgetattr(descriptor, &saved) == 0 else { throw TerminalError.systemCall(name: "tcgetattr", errno: errno) }
            hasSaved = true
        }
        // Armed before the first change: a signal at any point after this
        // finds the way back ready (restoring what is not yet changed is harmless).
        let exitBytes = Array(Self.exitSequence(mouse: options.mouse).utf8)
        TerminalRestore.arm(
            descriptor: descriptor, output: outputDescriptor, saved: saved, exitSequence: exitBytes,
            captureStandardError: isatty(STDERR_FILENO) == 1)
        active = true
        var raw = saved
        cfmakeraw(&raw)
        // Keep output post-processing off too (cfmakeraw does): "\n" is never written.
        guard tcsetattr(descriptor, TCSAFLUSH, &raw) == 0 else {
            let code = errno
            restore()
            throw TerminalError.systemCall(name: "tcsetattr", errno: code)
        }
        writeAll(Array(Self.enterSequence(mouse: options.mouse).utf8))
    }

    /// Takes, for the whole process, every signal whose default action ends
    /// it, the crash signals too (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT,
    /// SIGTRAP): from then on each one restores the terminal if a session is
    /// in it, then ends the process by its default action. Call it first
    /// thing in `main`, before anything is drawn: until then Swift's runtime
    /// catches crash signals, and on a terminal its backtracer waits for a
    /// key ("Press space to interact") rather than ending the process.
    /// ``enter()`` installs them too, for a program that did not.
    ///
    /// ```swift
    /// // main.swift
    /// TerminalSession.installSignalHandlers()
    /// ```
    public static func installSignalHandlers() {
        TerminalRestore.installHandlers()
    }

    /// Puts the terminal back as it was. Safe to call more than once.
    ///
    /// ```swift
    /// session.restore()
    /// ```
    public func restore() {
        guard active else { return }
        active = false
        TerminalRestore.restoreNow()
    }

    /// Writes bytes to the terminal, retrying short writes.
    ///
    /// ```swift
    /// session.writeAll(Array("\u{1B}[H".utf8))
    /// ```
    public func writeAll(_ bytes: [UInt8]) {
        TerminalSession.writeAll(bytes, to: outputDescriptor)
    }

    /// Writes bytes to a descriptor, retrying short and interrupted writes.
    static func writeAll(_ bytes: [UInt8], to descriptor: Int32) {
        bytes.withUnsafeBufferPointer { buffer in
            var offset = 0
            while offset < buffer.count {
                let result = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if result < 0 && errno == EINTR { continue }
                if result <= 0 { return }
                offset += result
            }
        }
    }

    /// The size of the terminal on `descriptor` (80x24 when it cannot be read).
    ///
    /// ```swift
    /// let size = TerminalSession.size(of: STDOUT_FILENO)
    /// ```
    public static func size(of descriptor: Int32) -> TerminalSize {
        var window = winsize()
        if ioctl(descriptor, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0, window.ws_row > 0 {
            return TerminalSize(columns: Int(window.ws_col), rows: Int(window.ws_row))
        }
        return TerminalSize(columns: 80, rows: 24)
    }
}

/// Why the terminal could not be used.
///
/// ```swift
/// do { try session.enter() } catch { print(error) }
/// ```
public enum TerminalError: Error, Hashable, CustomStringConvertible {
    /// The descriptor is not a terminal (input redirected from a file or pipe).
    case notATerminal(descriptor: Int32)
    /// A system call failed.
    case systemCall(name: String, errno: Int32)

    /// A message for people.
    ///
    /// ```swift
    /// print(TerminalError.notATerminal(descriptor: 0))
    /// ```
    public var description: String {
        switch self {
        case .notATerminal(let descriptor):
            return "file descriptor \(descriptor) is not a terminal; run the interactive app in a terminal, or use its subcommands"
        case .systemCall(let name, let errno):
            return "\(name) failed: \(String(cString: strerror(errno))) (errno \(errno))"
        }
    }
}
