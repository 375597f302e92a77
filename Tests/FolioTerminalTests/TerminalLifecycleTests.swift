import FolioTableTestSupport
import Foundation
import Testing

@testable import FolioTerminal

#if canImport(Glibc)
    import Glibc
#endif

@Suite("Terminal lifecycle on a real pty", .serialized)
struct TerminalLifecycleTests {
    var probe: String { PseudoTerminal.probe }

    func expectRestored(_ modes: termios, like original: termios, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(modes.c_lflag == original.c_lflag, sourceLocation: sourceLocation)
        #expect(modes.c_iflag == original.c_iflag, sourceLocation: sourceLocation)
        #expect(modes.c_oflag == original.c_oflag, sourceLocation: sourceLocation)
        #expect(modes.c_cflag == original.c_cflag, sourceLocation: sourceLocation)
    }

    /// Runs the probe in a mode; returns what it wrote before READY, after, and how it ended.
    func run(_ mode: String, signal: Int32? = nil, environment: [String: String]? = nil) throws
        -> (before: String, raw: termios, original: termios, after: String, end: (code: Int32?, signal: Int32?))
    {
        try #require(FileManager.default.isExecutableFile(atPath: probe), "folio-terminal-probe not built at \(probe)")
        let pty = try PseudoTerminal()
        let original = pty.modes()
        let pid = try pty.spawn(probe, [mode], environment: environment)
        let before = pty.read(until: "READY", timeout: 20)
        let raw = pty.modes()
        if let signal { kill(pid, signal) }
        let end = PseudoTerminal.wait(pid)
        // What came after READY, whether it arrived with READY or later.
        let all = before + pty.read(until: nil, timeout: 2)
        let after = all.range(of: "READY").map { String(all[$0.upperBound...]) } ?? all
        let restored = pty.modes()
        expectRestored(restored, like: original)
        return (before, raw, original, after, end)
    }

    @Test("SIGTERM: raw mode and the alternate screen are undone, then the process dies of SIGTERM")
    func sigterm() throws {
        let result = try run("hold", signal: SIGTERM)
        #expect(result.before.contains("\u{1B}[?1049h"))
        #expect(result.before.contains("\u{1B}[?1006h"))
        #expect(result.raw.c_lflag & tcflag_t(ICANON) == 0, "raw mode while running")
        #expect(result.raw.c_iflag & tcflag_t(ICRNL) == 0)
        #expect(result.raw.c_lflag & tcflag_t(ECHO) == 0)
        #expect(result.original.c_lflag & tcflag_t(ICANON) != 0)
        #expect(result.end.signal == SIGTERM)
        #expect(result.after == TerminalSession.exitSequence(mouse: true))
    }

    @Test("Ctrl-C's signal (SIGINT) and SIGHUP restore too")
    func interrupt() throws {
        for signal in [SIGINT, SIGHUP] {
            let result = try run("hold", signal: signal)
            #expect(result.end.signal == signal)
            #expect(result.after.contains("\u{1B}[?1049l"))
        }
    }

    @Test("Every signal that ends the process by default restores the terminal first")
    func everyTerminatingSignal() throws {
        let signals: [Int32] = [
            SIGSYS, SIGXCPU, SIGXFSZ, SIGUSR1, SIGUSR2, SIGALRM, SIGPIPE, SIGVTALRM, SIGPROF,
            SIGIO, SIGPWR, SIGSTKFLT, SIGQUIT, SIGABRT, SIGTRAP, SIGBUS, SIGFPE, SIGILL, SIGSEGV,
            SIGRTMIN_(), SIGRTMAX_(),
        ]
        for signal in signals {
            let result = try run("hold", signal: signal)
            #expect(result.end.signal == signal, "signal \(signal) ended it: \(result.end)")
            #expect(result.after.contains("\u{1B}[?1049l"), "signal \(signal) left the alternate screen")
            #expect(result.after.contains("\u{1B}[?1002l"), "signal \(signal) turned the mouse off")
        }
    }

    @Test("A signal another thread takes is restored by the drawing thread: nothing is drawn after the restore")
    func signalOnAnotherThread() throws {
        try #require(FileManager.default.isExecutableFile(atPath: probe), "folio-terminal-probe not built at \(probe)")
        for _ in 0..<5 {
            let pty = try PseudoTerminal()
            let original = pty.modes()
            let pid = try pty.spawn(probe, ["elsewhere"])
            // Read while waiting: the probe draws without pause, and a full
            // pty would hold its writes (the restore's too).
            var output: [UInt8] = []
            var status: Int32 = 0
            var ended = false
            let deadline = Date().addingTimeInterval(20)
            while !ended && Date() < deadline {
                output += pty.readAvailable(timeout: 0.01)
                ended = waitpid(pid, &status, WNOHANG) == pid
            }
            if !ended {
                kill(pid, SIGKILL)
                waitpid(pid, &status, 0)
            }
            output += Array(pty.read(until: nil, timeout: 2).utf8)  // all that is left, not one read's worth
            let text = String(decoding: output, as: UTF8.self)
            #expect(ended && status & 0x7F == SIGTERM, "ended: \(ended), status \(status)")
            let restore = try #require(
                text.range(of: "\u{1B}[?1049l", options: .backwards), "no exit sequence: \(text.suffix(200).debugDescription)")
            let drawnAfter = text[restore.upperBound...]
            #expect(!drawnAfter.contains("frame"), "drawn after the restore: \(drawnAfter.prefix(200).debugDescription)")
            expectRestored(pty.modes(), like: original)
        }
    }

    @Test("A stack overflow restores the terminal on the alternate signal stack")
    func stackOverflow() throws {
        // The Swift runtime's backtracer brings an alternate stack of its own;
        // with it off, only the kit's can run the handler.
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = "enable=no"
        let result = try run("overflow", environment: environment)
        #expect(result.end.signal == SIGSEGV || result.end.signal == SIGBUS, "ended by \(String(describing: result.end))")
        #expect(result.after.contains(TerminalSession.exitSequence(mouse: true)), "\(result.after.debugDescription)")
    }

    @Test("A normal exit restores through atexit")
    func normalExit() throws {
        let result = try run("quit")
        #expect(result.end.code == 0)
        #expect(result.after.contains(TerminalSession.exitSequence(mouse: true)))
    }

    @Test("A crash restores the terminal before the crash message is printed")
    func crash() throws {
        let result = try run("crash")
        #expect(result.end.signal == SIGILL || result.end.signal == SIGTRAP, "ended by \(String(describing: result.end))")
        let output = result.after
        let restore = try #require(output.range(of: "\u{1B}[?1049l"), "exit sequence in \(output.debugDescription)")
        let message = try #require(output.range(of: "Index out of range"), "crash message in \(output.debugDescription)")
        #expect(restore.lowerBound < message.lowerBound)
    }

    @Test("NO_COLOR, TERM=dumb and --no-mouse are read from the environment and arguments")
    func options() {
        #expect(TerminalOptions(environment: [:], arguments: []) == TerminalOptions(colors: true, mouse: true))
        #expect(TerminalOptions(environment: ["NO_COLOR": "1"], arguments: []).colors == false)
        #expect(TerminalOptions(environment: ["NO_COLOR": ""], arguments: []).colors == true)
        #expect(TerminalOptions(environment: ["TERM": "dumb"], arguments: []).colors == false)
        #expect(TerminalOptions(environment: [:], arguments: ["folio", "--no-mouse"]).mouse == false)
        #expect(!TerminalSession.enterSequence(mouse: false).contains("1006"))
    }

    @Test("A descriptor that is not a terminal is refused with a clear error")
    func notATerminal() throws {
        let pipeEnds = UnsafeMutablePointer<Int32>.allocate(capacity: 2)
        defer { pipeEnds.deallocate() }
        #expect(pipe(pipeEnds) == 0)
        defer { close(pipeEnds[0]); close(pipeEnds[1]) }
        #expect(throws: TerminalError.notATerminal(descriptor: pipeEnds[0])) {
            _ = try TerminalSession(options: TerminalOptions(), descriptor: pipeEnds[0])
        }
    }
}

@Suite("The application's run loop on a real pty", .serialized)
struct RunLoopPTYTests {
    var probe: String { PseudoTerminal.probe }

    @Test("Keys typed into the terminal reach the app; q quits with the terminal restored")
    func typeAndQuit() throws {
        try #require(FileManager.default.isExecutableFile(atPath: probe), "folio-terminal-probe not built at \(probe)")
        // PtyApp waits on the app's own state (FOLIO_DEBUG_STATE), not on time.
        let app = try PtyApp(URL(fileURLWithPath: probe), ["demo"])
        defer { app.close() }
        let original = app.initialModes
        app.keepsOutput = true
        try app.waitFor("Mercury")
        try app.press("j", "j", "h")
        try app.waitFor("Delete")
        try app.press("Escape")  // Esc alone: hides the actions after the pause
        try app.waitForAbsence(of: "Delete")
        app.send(Array("q".utf8))
        let end = try app.waitForExit()
        #expect(end.code == 0)
        #expect(String(decoding: app.output, as: UTF8.self).contains(TerminalSession.exitSequence(mouse: true)))
        #expect(app.terminal.modes().c_lflag == original.c_lflag)
        #expect(app.terminal.modes().c_iflag == original.c_iflag)
    }

    @Test("A hung-up terminal ends the app")
    func hangUp() throws {
        try #require(FileManager.default.isExecutableFile(atPath: probe), "folio-terminal-probe not built at \(probe)")
        let pty = try PseudoTerminal()
        let pid = try pty.spawn(probe, ["demo"])
        _ = pty.read(until: "Mercury", timeout: 20)
        pty.hangUp()
        let end = PseudoTerminal.wait(pid, timeout: 10)
        #expect(end.code != nil || end.signal != nil, "the app ended")
    }

    @Test("SIGWINCH after a resize redraws the whole screen at the new size")
    func resize() throws {
        try #require(FileManager.default.isExecutableFile(atPath: probe), "folio-terminal-probe not built at \(probe)")
        let pty = try PseudoTerminal()
        let pid = try pty.spawn(probe, ["demo"])
        _ = pty.read(until: "Mercury", timeout: 20)
        _ = pty.read(until: nil, timeout: 0.3)
        var size = winsize(ws_row: 12, ws_col: 50, ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(pty.secondary, UInt(TIOCSWINSZ), &size)
        kill(pid, SIGWINCH)
        let redraw = pty.read(until: "help", timeout: 10)
        #expect(redraw.contains("\u{1B}[2J"), "a full redraw: \(redraw.debugDescription)")
        #expect(redraw.contains("\u{1B}[12;"), "the hint bar on the new last row")
        pty.type("q")
        #expect(PseudoTerminal.wait(pid).code == 0)
    }

    @Test("Ctrl-Z gives the terminal back and stops; SIGCONT takes it again")
    func suspend() throws {
        try #require(FileManager.default.isExecutableFile(atPath: probe), "folio-terminal-probe not built at \(probe)")
        let pty = try PseudoTerminal()
        let original = pty.modes()
        let pid = try pty.spawn(probe, ["demo"])
        _ = pty.read(until: "Mercury", timeout: 20)
        pty.type("\u{1A}")
        #expect(PseudoTerminal.waitStopped(pid), "the app stopped")
        let suspended = pty.read(until: nil, timeout: 1)
        #expect(suspended.contains("\u{1B}[?1049l"))
        #expect(pty.modes().c_lflag == original.c_lflag, "cooked modes while stopped")
        kill(pid, SIGCONT)
        let resumed = pty.read(until: "Mercury", timeout: 10)
        #expect(resumed.contains("\u{1B}[?1049h"))
        #expect(pty.modes().c_lflag & tcflag_t(ICANON) == 0, "raw again")
        pty.type("q")
        let end = PseudoTerminal.wait(pid)
        #expect(end.code == 0)
        #expect(pty.modes().c_lflag == original.c_lflag)
    }
}

/// glibc's real-time signal range (macros in C).
private func SIGRTMIN_() -> Int32 { __libc_current_sigrtmin() }
private func SIGRTMAX_() -> Int32 { __libc_current_sigrtmax() }
